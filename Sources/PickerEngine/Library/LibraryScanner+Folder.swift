import PickerSystem

extension LibraryScanner {
    /// Looks again at the files directly in one folder (not its subfolders): what a rescan after
    /// an inotify event in that folder needs. Unchanged files keep their records (see `scan`).
    /// - Returns: the folder's photos and skipped entries, or nil when this cannot be done folder
    ///   by folder (the folder is gone or holds symlinks): the caller then rescans everything.
    static func scanFolder(_ folder: String, root: RootDirectory, previous: [String: Photo],
                           notImages known: [String: FileVersion] = [:], maxPixels: Int = EngineConfiguration.defaultMaxPixels)
        -> (photos: [Photo], skipped: [SkippedEntry], added: [String], changed: [String], notImages: [String: FileVersion])? {
        guard let fd = try? root.openDirectory(folder) else { return nil }
        defer { FileSystem.close(fd) }
        guard let (entries, _) = try? DirectoryListing.entries(of: fd) else { return nil }
        var files: [FoundFile] = []
        for entry in entries where !entry.name.hasPrefix(".") {
            guard let status = try? FileSystem.status(of: entry.name, in: fd) else { continue }
            if status.isSymlink { return nil }
            guard status.isRegular else { continue }
            let relative = folder.isEmpty ? entry.name : folder + "/" + entry.name
            files.append(FoundFile(folder: folder, name: entry.name, relative: relative, openPath: relative, status: status))
        }
        var photos: [Photo] = [], skipped: [SkippedEntry] = [], added: [String] = [], changed: [String] = []
        var notImages: [String: FileVersion] = [:]
        for (file, outcome) in zip(files, readHeaders(files, root: root, reusing: previous, notImages: known, maxPixels: maxPixels)) {
            switch outcome {
            case .reused(let photo):
                photos.append(photo)
            case .header(let header, let st, let tooLarge):
                if previous[file.relative] == nil { added.append(file.relative) } else { changed.append(file.relative) }
                photos.append(Photo(albumName: folder, fileName: file.name, relativePath: file.relative, header: header,
                                    byteSize: st.size, mtimeSeconds: st.mtimeSeconds, mtimeNanoseconds: st.mtimeNanoseconds,
                                    device: st.identity.device, inode: st.identity.inode, tooLarge: tooLarge))
            case .skipped(let reason, let message):
                skipped.append(SkippedEntry(relativePath: file.relative, reason: reason, message: message))
            case .notAnImage(let message, let version):
                notImages[file.relative] = version
                skipped.append(SkippedEntry(relativePath: file.relative, reason: .notAnImage, message: message))
            }
        }
        return (photos, skipped, added, changed, notImages)
    }
}
