#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PickerProtocol
import PickerSystem
import Synchronization

/// The photo library: the current snapshot of a scanned folder tree, replaced whole by `rescan()`.
///
/// Readers get a consistent snapshot without waiting for a scan in progress; rescans do not
/// overlap (a second caller waits for the first to finish, then scans again).
public final class PhotoLibrary: Sendable {
    /// The root as configured.
    public let root: String
    /// Largest photo `readPhotoBytes` will load.
    public let maxPhotoBytes: Int
    /// The pixel cap: a header declaring more is listed too large (`Photo.tooLarge`), never opened for decoding.
    public let maxPixels: Int
    /// Helps read headers in a scan.
    let pool: WorkerPool?
    /// `--show-raw-pairs`: both files of a RAW+JPEG pair are listed; by default the pair is one
    /// photo, the JPEG (`RawPairing`).
    public let showsRawPairs: Bool

    /// The current snapshot and, derived from it, every photo by relative path (sessions look
    /// photos up by path); replaced together so the two always agree.
    let current: Mutex<(snapshot: LibrarySnapshot, byPath: [String: Photo])>
    /// One scan at a time (the watcher's and a test's, or two rescans) walks the tree.
    let scanGate = Mutex(())
    /// Files the last scans found not to be images, by relative path, with the version looked at:
    /// not opened again while unchanged (kept in memory only, rebuilt by each start's first scan).
    let notImages = Mutex<[String: FileVersion]>([:])
    /// How far the running scan has got.
    public let progress = ScanProgressMeter()
    /// Photos whose file failed to decode, with the reason, until the file changes.
    public let broken = BrokenPhotos()

    /// A library over `root`, empty until `rescan()` is called.
    /// - Parameter maxPhotoBytes: size cap for `readPhotoBytes` (default 100 MiB: files are read
    ///   whole, and their bytes count against the daemon's work budget).
    /// - Parameter pool: the workers that help read headers in a scan (nil: the scanning thread only).
    /// - Parameter maxPixels: the pixel cap (`--max-megapixels`).
    /// - Parameter showsRawPairs: list both files of a RAW+JPEG pair (`--show-raw-pairs`).
    public init(root: String, maxPhotoBytes: Int = 100 * 1024 * 1024, pool: WorkerPool? = nil,
                maxPixels: Int = EngineConfiguration.defaultMaxPixels, showsRawPairs: Bool = false) {
        self.root = root
        self.showsRawPairs = showsRawPairs
        self.pool = pool
        self.maxPhotoBytes = maxPhotoBytes
        self.maxPixels = maxPixels
        current = Mutex((LibrarySnapshot.empty(root: root), [:]))
    }

    /// Scans the library again and makes the result current. Files unchanged since the last scan
    /// (same device, inode, size and mtime) keep their headers without being opened.
    ///
    /// Never fails: when the root cannot be opened (missing, unmounted, not a folder) the new
    /// snapshot is empty and carries the reason in `scanError`, so the daemon keeps serving
    /// and `library` can say what is wrong.
    /// - Parameter onFolder: called with every folder walked, open, and its relative path.
    /// - Returns: the new snapshot and what changed from the one before.
    @discardableResult
    public func rescan(onFolder: ((Int32, String) -> Void)? = nil) -> (snapshot: LibrarySnapshot, changes: LibraryChangeSet) {
        return scanGate.withLock { _ in
            let previous = current.withLock { $0.byPath }
            progress.begin(expected: previous.count)
            defer { progress.end() }
            var counted: LibraryScanner.Result?
            var snapshot: LibrarySnapshot
            do throws(PickerError) {
                var scanner = LibraryScanner(root: root)
                scanner.pool = pool
                scanner.maxPixels = maxPixels
                scanner.showsRawPairs = showsRawPairs
                let result = try scanner.scanCounting(reusing: previous, notImages: notImages.withLock { $0 },
                                                      onFolder: onFolder, progress: progress)
                notImages.withLock { $0 = result.notImages }
                counted = result
                snapshot = result.snapshot
            } catch {
                snapshot = LibrarySnapshot.empty(root: root)
                snapshot.scanError = error
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                snapshot.scannedAtSeconds = Int64(now.tv_sec)
            }
            let made = snapshot
            let index = made.filesByPath()
            current.withLock { $0 = (made, index) }
            return (made, Self.changes(from: previous, to: index, counted: counted))
        }
    }

    /// What a rescan changed, from what the scan counted: a path of `previous` is removed only if
    /// it is not in the new index, and that is looked for only when fewer old files were found than
    /// there were (at 100,000 photos this saves a second pass on every change).
    static func changes(from previous: [String: Photo], to index: [String: Photo],
                        counted: LibraryScanner.Result?) -> LibraryChangeSet {
        guard let counted else { return LibraryChangeSet(from: previous, to: index) }
        var removed: [String] = []
        if counted.unchanged + counted.changed.count < previous.count {
            removed = previous.keys.filter { index[$0] == nil }
        }
        // Not sorted here: a first scan's 100,000 "added" are never announced (sorting them was 7 %
        // of the scan); the service sorts what it announces.
        return LibraryChangeSet(added: counted.added, removed: removed, changed: counted.changed)
    }

    /// Makes photos loaded from the index current, before any scan (a restart serves at once; the
    /// first rescan then checks them against the disk).
    /// - Returns: the snapshot, or nil when the root cannot be opened (the scan will say why).
    func install(indexed photos: [Photo]) -> LibrarySnapshot? {
        guard let rootDirectory = try? RootDirectory(path: root) else { return nil }
        var byFolder: [String: [Photo]] = [:]
        for photo in photos { byFolder[photo.albumName, default: []].append(photo) }
        var snapshot = LibrarySnapshot.assemble(root: root, rootDirectory: rootDirectory, byFolder: byFolder,
                                                skipped: [], scanDurationSeconds: 0, showsRawPairs: showsRawPairs)
        snapshot.scannedAtSeconds = 0  // not checked against the disk yet: `library` says scanning until it is
        let index = snapshot.filesByPath()
        current.withLock { $0 = (snapshot, index) }
        return snapshot
    }

    /// Every file by relative path (the current snapshot's index; the RAWs hidden behind a JPEG too).
    var photosByPath: [String: Photo] { current.withLock { $0.byPath } }

    /// The current snapshot.
    public var snapshot: LibrarySnapshot { current.withLock { $0.snapshot } }


    /// Albums: "All Photos" first, then folder albums.
    public var albums: [Album] { snapshot.albums }

    /// The album named `name`; see `LibrarySnapshot.album(named:)`.
    public func album(named name: String) throws(PickerError) -> Album {
        try snapshot.album(named: name)
    }

    /// The album at a 1-based index ("All Photos" is 1).
    public func album(atIndex index: Int) throws(PickerError) -> Album {
        try snapshot.album(atIndex: index)
    }

    /// The album with exactly this name and its 1-based index, if it exists (no name checks, no errors:
    /// for resolving names already stored in a session).
    public func indexedAlbum(named name: String) -> (index: Int, album: Album)? {
        let albums = snapshot.albums
        guard let i = albums.firstIndex(where: { $0.name == name }) else { return nil }
        return (i + 1, albums[i])
    }

    /// The photo with this relative path ("2024/Kyoto/IMG_1.jpg"), if it is in the library.
    public func photo(relativePath: String) -> Photo? {
        current.withLock { $0.byPath[relativePath] }
    }

    /// The photo named `photoName` in the album named `albumName`.
    public func photo(named photoName: String, inAlbum albumName: String) throws(PickerError) -> Photo {
        try snapshot.album(named: albumName).photo(named: photoName)
    }

    /// The photo at a 1-based index in the album named `albumName`.
    public func photo(atIndex index: Int, inAlbum albumName: String) throws(PickerError) -> Photo {
        try snapshot.album(named: albumName).photo(atIndex: index)
    }
}
