#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

extension LibrarySnapshot {
    /// Builds a snapshot from photos grouped by folder (relative path, "" for the root): albums in
    /// natural folder order with photos in natural name order, "All Photos" newest first, the root's
    /// photos in an album named after the root folder. Used by a scan and by loading the index.
    /// - Parameter showsRawPairs: list both files of a RAW+JPEG pair (`--show-raw-pairs`); by default
    ///   the RAW is the JPEG's companion (`RawPairing`), in no listing and no count.
    static func assemble(root: String, rootDirectory: RootDirectory, byFolder: [String: [Photo]],
                         skipped: [SkippedEntry], scanDurationSeconds: Double,
                         showsRawPairs: Bool = false) -> LibrarySnapshot {
        let rootName = LibraryScanner.rootAlbumName(root: root, rootReal: rootDirectory.path, folders: Set(byFolder.keys))
        var albums: [Album] = []
        var everything: [Photo] = []
        for folder in LibraryScanner.sortedFolders(Array(byFolder.keys)) {
            let name = folder.isEmpty ? rootName : folder
            let album = Album.folder(folder, named: name, byFolder[folder] ?? [], showsRawPairs: showsRawPairs)
            everything.append(contentsOf: album.photos)
            albums.append(album)
        }
        let all = Album(name: allPhotosName, kind: .allPhotos, photos: Album.sortedNewestFirst(everything))
        let sortedSkipped = skipped.sorted { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return LibrarySnapshot(root: root, rootRealPath: rootDirectory.path, rootDirectory: rootDirectory,
                               albums: [all] + albums, skipped: sortedSkipped,
                               scannedAtSeconds: Int64(now.tv_sec), scanDurationSeconds: scanDurationSeconds)
    }
}
