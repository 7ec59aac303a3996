import PickerProtocol

/// The photo list of a long album, loaded a page (10,000 photos) at a time: the first page when the
/// album opens, the next as the cursor comes near the end of what is loaded, and the whole rest
/// before a jump to the end (End, G) or a filter (`/`), so both see every photo of the album, as a
/// user expects, not just the part scrolled through so far.
enum PhotoPaging {
    /// The selected album's first page (and, if the current photo lies further, up to it).
    static func reload(_ model: inout PickerModel, from daemon: PickDaemon) throws(CLIError) {
        guard model.session.album != nil else {
            model.photos.replace([])
            model.photosTotal = 0
            return
        }
        let first = try daemon.photosPage(offset: 0)
        model.photos.replace(first.photos)
        model.photosTotal = first.total
        if let index = model.session.photoIndex { try load(&model, count: index, from: daemon) }
    }

    /// Loads pages until at least `count` photos are loaded, or the album is.
    static func load(_ model: inout PickerModel, count: Int, from daemon: PickDaemon) throws(CLIError) {
        while model.photos.items.count < min(count, model.photosTotal) {
            let page = try daemon.photosPage(offset: model.photos.items.count)
            model.photosTotal = page.total
            // An album that shrank under us ends the loading instead of looping.
            guard !page.photos.isEmpty else { return }
            model.photos.append(page.photos)
        }
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

    /// Keys that need the whole album first: End/G reach the true last photo, `/` filters all of it.
    static func needsWholeAlbum(_ input: TerminalInput, _ model: PickerModel) -> Bool {
        guard model.focus == .photos, !model.filterEditing, model.mode != .preview, !model.photosComplete else { return false }
        switch input {
        case .end, .character("G"), .character("/"): return true
        default: return false
        }
    }

    /// The next page when the cursor is within two screens of the end of what is loaded.
    static func topUp(_ model: inout PickerModel, paneHeight: Int, from daemon: PickDaemon) throws(CLIError) {
        guard !model.photosComplete, model.photos.filter.isEmpty,
              model.photos.cursor + 2 * max(1, paneHeight) >= model.photos.items.count else { return }
        try load(&model, count: model.photos.items.count + 1, from: daemon)
    }
}
