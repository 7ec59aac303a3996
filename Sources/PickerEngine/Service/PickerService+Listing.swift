import PickerProtocol

/// Listings in the session's order, and everything that counts rows: `photos`, `photosPage`,
/// `select-photo --index`, `next`/`prev`, `toggle --index`, the grid and the current photo's index
/// all read the album through `orderedAlbum(of:)`, so an index always means the row the user saw.
extension PickerService {
    /// The session's selected album in the session's order.
    /// - Throws: `.nothingSelected` without an album; `.noSuchAlbum` when it is gone.
    func orderedAlbum(of session: Session) throws(PickerError) -> OrderedAlbum {
        albumOrders.ordered(try selectedAlbum(of: session), session.order, filter: session.photoFilter)
    }

    /// The album named `name` in `order` as `filter` shows it, if it exists (for resolving a
    /// stored session's state).
    func orderedAlbum(named name: String, _ order: PhotoSortOrder, filter: PhotoNameFilter) -> (index: Int, album: OrderedAlbum)? {
        guard let (i, album) = library.indexedAlbum(named: name) else { return nil }
        return (i, albumOrders.ordered(album, order, filter: filter))
    }

    /// Sets the session's photo order; a change is announced as a `photo` change (the current
    /// photo's index moves), which every version-1 client can decode.
    func setSort(_ name: String, _ sort: PhotoSort) throws(PickerError) -> SessionState {
        let order = PhotoSortOrder(sort)
        return try changeSession(name, .photo, isNews: { $0.order != $1.order }) { s in s.sort = order }.state
    }

    /// Version 1 `photos`: the whole album. `sort = date` sets the session's order first (so the
    /// indexes shown are the ones `--index` uses); `sort = name` lists in the session's order.
    func photoList(_ name: String, _ sort: PhotoSort) throws(PickerError) -> PhotoList {
        if sort == .date { _ = try setSort(name, .date) }
        let ordered = try orderedAlbum(of: try sessions.get(name))
        return PhotoList(album: ordered.album.name, photos: rows(of: ordered, in: 0..<ordered.count))
    }

    /// One page of the selected album in the session's order.
    /// - Throws: `.outOfRange` for a limit outside 1…10,000; `.noSuchPhoto` for an offset past the
    ///   last photo (an offset of 0 in an empty album is an empty page).
    func photosPage(_ request: PhotosPageRequest) throws(PickerError) -> PhotoPage {
        guard (1...PhotosPageRequest.maxLimit).contains(request.limit) else {
            throw PickerError(.outOfRange, "page limit \(request.limit) is out of range 1…\(PhotosPageRequest.maxLimit)")
        }
        let ordered = try orderedAlbum(of: try sessions.get(request.session))
        guard request.offset == 0 || request.offset < ordered.count else {
            throw PickerError(.noSuchPhoto,
                              "no page at offset \(request.offset): album '\(ordered.album.name)' has \(ordered.count == 1 ? "1 photo" : "\(ordered.count) photos")")
        }
        let end = min(ordered.count, request.offset + request.limit)
        return PhotoPage(album: ordered.album.name, sort: ordered.order.wire, total: ordered.count,
                         offset: request.offset,
                         photos: rows(of: ordered, in: request.offset..<end, markingBroken: request.markBroken),
                         marksBroken: request.markBroken)
    }

    /// Makes the photo picked by name or by index in the session's order current.
    func selectPhoto(_ name: String, _ selector: Selector) throws(PickerError) -> SessionState {
        let photo = try orderedAlbum(of: try sessions.get(name)).photo(selector)
        return try changeSession(name, .photo) { s in s.photo = photo.relativePath }.state
    }

    /// Moves the current photo one row on or back in the session's order; without a current
    /// photo (or when it left the album), `next` starts at the first row and `prev` at the last.
    func stepPhoto(_ name: String, _ direction: StepDirection) throws(PickerError) -> SessionState {
        let session = try sessions.get(name)
        let ordered = try orderedAlbum(of: session)
        let target = try step(in: ordered, from: session.photo, direction)
        return try changeSession(name, .photo) { s in s.photo = target.relativePath }.state
    }

    private func step(in ordered: OrderedAlbum, from current: String?, _ direction: StepDirection) throws(PickerError) -> Photo {
        let name = ordered.album.name, n = ordered.count
        guard n > 0 else { throw PickerError(.noSuchPhoto, "album '\(name)' has no photos") }
        guard let current, let i = ordered.position(ofPhotoAt: current) else {
            return direction == .next ? ordered[0] : ordered[n - 1]
        }
        switch direction {
        case .next:
            guard i + 1 < n else { throw PickerError(.noSuchPhoto, "already at the last photo of '\(name)' (\(n) of \(n))") }
            return ordered[i + 1]
        case .previous:
            guard i > 0 else { throw PickerError(.noSuchPhoto, "already at the first photo of '\(name)'") }
            return ordered[i - 1]
        }
    }

    /// Listing rows for display positions `range`; `index` is the 1-based display position.
    /// With `markingBroken`, rows of photos known not to decode carry the reason.
    private func rows(of ordered: OrderedAlbum, in range: Range<Int>, markingBroken: Bool = false) -> [PhotoInfo] {
        range.map { i in
            let p = ordered[i]
            return PhotoInfo(index: i + 1, name: p.fileName, path: p.relativePath, width: p.header.displayWidth,
                             height: p.header.displayHeight, bytes: p.byteSize, format: p.header.format, date: p.date,
                             dateSource: p.dateIsFromExif ? .exif : .modified,
                             broken: markingBroken ? brokenReason(p) : nil)
        }
    }
}
