extension PhotoLibrary {
    /// Looks again only at the files directly in `folders` (what inotify said changed) and makes the
    /// result current. A change in one folder of a 1,000,000-photo library then costs a listing of that
    /// folder, not a walk of the whole tree.
    /// - Returns: the new snapshot and what changed, or nil when it cannot be done folder by folder
    ///   (no scan yet, the root folder itself, a folder gone or holding symlinks): rescan everything then.
    public func rescanFolders(_ folders: Set<String>) -> (snapshot: LibrarySnapshot, changes: LibraryChangeSet)? {
        scanGate.withLock { _ -> (snapshot: LibrarySnapshot, changes: LibraryChangeSet)? in
            let (old, oldIndex) = current.withLock { ($0.snapshot, $0.byPath) }
            guard old.hasBeenScanned, let root = old.rootDirectory, !folders.contains("") else { return nil }
            var byFolder: [String: [Photo]] = [:]
            var skipped: [SkippedEntry] = []
            var changes = LibraryChangeSet()
            var known = notImages.withLock { $0 }
            for folder in folders {
                guard let result = LibraryScanner.scanFolder(folder, root: root, previous: oldIndex, notImages: known,
                                                                maxPixels: maxPixels)
                else { return nil }
                // The folder's non-images as found now (files gone or turned into photos forgotten).
                for (path, _) in known where LibrarySnapshot.folder(of: path) == folder { known[path] = nil }
                known.merge(result.notImages) { _, new in new }
                byFolder[folder] = result.photos
                skipped += result.skipped
                changes.added += result.added
                changes.changed += result.changed
            }
            let kept = Set(byFolder.values.joined().map(\.relativePath))
            for album in old.albums where !album.isAllPhotos {
                guard let folder = album.folderPath, byFolder[folder] != nil else { continue }
                changes.removed += album.allFiles.map(\.relativePath).filter { !kept.contains($0) }
            }
            let snapshot = old.replacingFolders(byFolder, skipped: skipped, showsRawPairs: showsRawPairs)
            var index = oldIndex
            for path in changes.removed { index[path] = nil }
            for photo in byFolder.values.joined() { index[photo.relativePath] = photo }
            notImages.withLock { $0 = known }
            current.withLock { $0 = (snapshot, index) }
            return (snapshot, changes)
        }
    }
}
