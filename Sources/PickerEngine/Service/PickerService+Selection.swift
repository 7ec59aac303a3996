import PickerProtocol

/// The ordered multi-selection (the pick list), kept across album switches.
extension PickerService {
    /// Adds the photo to the pick list or removes it.
    /// - Throws: `.selectionFull` naming the limit when adding past it (nothing changes);
    ///   `.corruptImage` with the reason when adding a photo known broken (`.imageTooLarge` for one too large);
    ///   `.nothingSelected` without an album; `.noSuchPhoto`.
    func toggle(_ name: String, _ selector: Selector) throws(PickerError) -> SelectionList {
        let photo = try orderedAlbum(of: try sessions.get(name)).photo(selector)
        let updated = try changeSession(name, .selection) { (s: inout Session) throws(PickerError) in
            s.selection = s.selection.filter { library.photo(relativePath: $0) != nil }
            if let i = s.selection.firstIndex(of: photo.relativePath) {
                s.selection.remove(at: i)
            } else {
                // A photo known not to decode is refused with the reason, under the decode's own code.
                if let reason = brokenReason(photo) {
                    throw PickerError(photo.tooLarge == nil ? .corruptImage : .imageTooLarge, "cannot pick '\(photo.fileName)': it cannot be shown: \(reason)")
                }
                guard s.selection.count < s.maxSelection else {
                    throw PickerError(.selectionFull,
                                      "cannot pick '\(photo.fileName)': the selection is full (limit \(s.maxSelection) \(s.maxSelection == 1 ? "photo" : "photos"))")
                }
                s.selection.append(photo.relativePath)
            }
        }.after
        return list(updated)
    }

    /// The pick list in pick order; photos gone from disk drop out quietly.
    func selection(of name: String) throws(PickerError) -> SelectionList {
        let pruned = try sessions.update(name) { (s: inout Session) throws(PickerError) -> Session in
            s.selection = s.selection.filter { library.photo(relativePath: $0) != nil }
            return s
        }
        return list(pruned)
    }

    private func list(_ s: Session) -> SelectionList {
        let root = library.snapshot.rootRealPath
        let photos = s.selection.compactMap { path -> SelectedPhoto? in
            guard let p = library.photo(relativePath: path) else { return nil }
            return SelectedPhoto(album: p.albumName, name: p.fileName, width: p.header.displayWidth,
                                 height: p.header.displayHeight, path: p.relativePath,
                                 absolutePath: root + "/" + p.relativePath)
        }
        return SelectionList(maxSelection: s.maxSelection, photos: photos)
    }
}
