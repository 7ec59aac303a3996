import PickerProtocol

/// The photo list of a long album, loaded a page at a time: the first page when the album opens, the
/// next as the cursor comes near the end of what is loaded, the last page straight away on End or `G`
/// (issue 24 item 9: the rows jumped over are stand-ins, loaded when the cursor comes near them), and
/// the whole rest before a filter (`/`), so it sees every photo of the album, not just the part
/// scrolled through so far.
enum PhotoPaging {
    /// Rows asked for at a time while browsing: many screens, quick to send.
    static let pageSize = 1_000

    /// The selected album's first page (and, if the current photo lies further, up to it).
    static func reload(_ model: inout PickerModel, from daemon: PickDaemon) throws(CLIError) {
        model.photoGaps = []
        guard model.session.album != nil else {
            model.photos.replace([])
            model.photosTotal = 0
            return
        }
        let first = try daemon.photosPage(offset: 0, limit: pageSize)
        model.photos.replace(first.photos)
        model.photosTotal = first.total
        if let index = model.session.photoIndex { try load(&model, count: index, from: daemon) }
    }

    /// Loads until the row `count` (1-based) is, or with `Int.max` the whole album, gaps included.
    static func load(_ model: inout PickerModel, count: Int, from daemon: PickDaemon) throws(CLIError) {
        while let gap = model.photoGaps.first(where: { count == Int.max || $0.contains(count - 1) }) {
            let start = count == Int.max ? gap.lowerBound : max(gap.lowerBound, count - 1 - pageSize / 2)
            guard try fill(&model, at: start, from: daemon) else { return }
        }
        while model.photos.items.count < min(count, model.photosTotal) {
            let page = try daemon.photosPage(offset: model.photos.items.count, limit: count == Int.max ? PhotosPageRequest.maxLimit : pageSize)
            model.photosTotal = page.total
            // An album that shrank under us ends the loading instead of looping.
            guard !page.photos.isEmpty else { return }
            model.photos.append(page.photos)
        }
    }

    /// End and `G`: the album's last page, after stand-ins for the rows between (the whole list
    /// instead when the album changed meanwhile).
    static func loadLast(_ model: inout PickerModel, from daemon: PickDaemon) throws(CLIError) {
        let loaded = model.photos.items.count
        let offset = max(loaded, model.photosTotal - pageSize)
        guard model.photoGaps.isEmpty, offset > loaded else { return try load(&model, count: Int.max, from: daemon) }
        let page = try daemon.photosPage(offset: offset, limit: pageSize)
        guard page.total == model.photosTotal, offset + page.photos.count == page.total else {
            return try load(&model, count: Int.max, from: daemon)
        }
        model.photos.append((loaded..<offset).map(standIn))
        model.photos.append(page.photos)
        model.photoGaps = [loaded..<offset]
    }

    /// Loads one page into the gap starting at `position`. Returns false when nothing came (the album shrank).
    private static func fill(_ model: inout PickerModel, at position: Int, from daemon: PickDaemon) throws(CLIError) -> Bool {
        guard let at = model.photoGaps.firstIndex(where: { $0.contains(position) }) else { return false }
        let gap = model.photoGaps[at]
        let page = try daemon.photosPage(offset: position, limit: min(pageSize, gap.upperBound - position))
        guard page.total == model.photosTotal, !page.photos.isEmpty else {
            // The album moved under us: start again from its first page.
            try reload(&model, from: daemon)
            return false
        }
        model.photos.fill(at: position, with: page.photos)
        let done = position..<(position + page.photos.count)
        model.photoGaps.remove(at: at)
        if gap.upperBound > done.upperBound { model.photoGaps.insert(done.upperBound..<gap.upperBound, at: at) }
        if gap.lowerBound < done.lowerBound { model.photoGaps.insert(gap.lowerBound..<done.lowerBound, at: at) }
        return true
    }

    /// A row not loaded yet: its album position, no name.
    private static func standIn(_ position: Int) -> PhotoInfo {
        PhotoInfo(index: position + 1, name: "", path: "", width: 0, height: 0, bytes: 0, format: .jpeg, date: 0, dateSource: .modified)
    }

    /// Re-reads the loaded rows whose photos a `libraryChangesEvent` named under `changed` (found
    /// broken, or rewritten on disk), so their marks and sizes are current without reloading the list.
    /// Returns false when that is not enough (the album's total or order moved; too many rows): the
    /// caller reloads the list then.
    static func refresh(_ model: inout PickerModel, changed paths: [String], from daemon: PickDaemon) throws(CLIError) -> Bool {
        let wanted = Set(paths)
        let positions = model.photos.items.indices.filter { wanted.contains(model.photos.items[$0].path) }
        guard positions.count <= maxRowsRefreshed else { return false }
        for position in positions {
            let page = try daemon.photosPage(offset: position, limit: 1)
            guard page.total == model.photosTotal, let row = page.photos.first,
                  row.path == model.photos.items[position].path else { return false }
            model.photos.update(at: position, with: row)
        }
        return true
    }

    /// Beyond this many changed rows a reload of the list costs less than a request a row.
    static let maxRowsRefreshed = 64

    /// What a key needs loaded first: End/G the last page, `/` the whole album (it filters all of it).
    enum Need { case lastPage, wholeAlbum }

    static func need(_ input: TerminalInput, _ model: PickerModel) -> Need? {
        guard model.focus == .photos, !model.filterEditing, model.mode != .preview, !model.photosComplete else { return nil }
        switch input {
        case .end, .character("G"): return .lastPage
        case .character("/"): return .wholeAlbum
        default: return nil
        }
    }

    /// The next page when the cursor is within two screens of the end of what is loaded, or of a gap.
    static func topUp(_ model: inout PickerModel, paneHeight: Int, from daemon: PickDaemon) throws(CLIError) {
        guard !model.photosComplete, model.photos.filter.isEmpty else { return }
        let reach = 2 * max(1, paneHeight)
        let near = max(0, model.photos.cursor - reach)..<(model.photos.cursor + reach + 1)
        if let gap = model.photoGaps.first(where: { $0.overlaps(near) }) {
            // A page next to the rows the screen needs: the gap's end when the cursor comes up to it
            // from below, else from where the screen begins to need rows.
            let start = gap.upperBound <= near.upperBound ? gap.upperBound - pageSize : near.lowerBound
            _ = try fill(&model, at: max(gap.lowerBound, start), from: daemon)
            return
        }
        guard model.photos.cursor + reach >= model.photos.items.count else { return }
        try load(&model, count: model.photos.items.count + 1, from: daemon)
    }
}
