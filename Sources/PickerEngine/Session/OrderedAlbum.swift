import PickerProtocol

/// An album's photos in one session order, and only those the session's filter admits: what a
/// listing shows, so what an index means. Cheap to pass around: it shares the album's photo array
/// and holds at most a permutation (of the admitted photos only, when a filter applies).
public struct OrderedAlbum: Sendable {
    /// The album as the library holds it.
    public let album: Album
    /// The order its photos are shown in.
    public let order: PhotoSortOrder
    /// The session's filter (`.all`: every photo).
    public let filter: PhotoNameFilter
    /// Positions into `album.photos` in display order; nil when that is the album's own order and
    /// every photo is shown.
    let permutation: [Int32]?

    init(album: Album, order: PhotoSortOrder, filter: PhotoNameFilter = .all, permutation: [Int32]?) {
        self.album = album
        self.order = order
        self.filter = filter
        self.permutation = permutation
    }

    /// Number of photos shown.
    public var count: Int { permutation?.count ?? album.photos.count }

    /// The photo shown at 0-based `position` (must be in 0..<count).
    public subscript(position: Int) -> Photo {
        guard let permutation else { return album.photos[position] }
        return album.photos[Int(permutation[position])]
    }

    /// The photos shown at 0-based positions `range` (clamped to the album).
    public func photos(in range: Range<Int>) -> [Photo] {
        let clamped = range.clamped(to: 0..<count)
        return clamped.map { self[$0] }
    }

    /// Every photo in display order.
    public var photos: [Photo] { photos(in: 0..<count) }

    /// The 0-based display position of the photo with this relative path, if the album holds it.
    public func position(ofPhotoAt relativePath: String) -> Int? {
        guard let stored = album.photos.firstIndex(where: { $0.relativePath == relativePath }) else { return nil }
        guard let permutation else { return stored }
        let target = Int32(stored)
        return permutation.firstIndex(of: target)
    }

    /// The photo picked by name (order does not matter) or by 1-based index in display order.
    /// - Throws: as `Album.photo(named:)`; `.noSuchPhoto` for an index out of range.
    func photo(_ selector: Selector) throws(PickerError) -> Photo {
        switch selector {
        case .name(let name):
            let photo = try album.photo(named: name)
            guard filter.admits(photo.fileName) else {
                throw PickerError(.noSuchPhoto, "'\(name)' in album '\(album.name)' is not among the photos this session shows (its filter: \(filter.patterns.joined(separator: " ")))")
            }
            return photo
        case .index(let index):
            guard index >= 1, index <= count else {
                throw PickerError(.noSuchPhoto,
                                  "no photo number \(index) in album '\(album.name)' (\(count == 1 ? "1 photo" : "\(count) photos"), numbered from 1)")
            }
            return self[index - 1]
        }
    }
}
