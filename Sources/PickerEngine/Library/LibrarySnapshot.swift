import PickerProtocol
import PickerSystem

/// One complete, immutable result of scanning the library.
public struct LibrarySnapshot: Sendable {
    /// Name of the virtual album that holds every photo; it is always album 1.
    public static let allPhotosName = "All Photos"

    /// The root as configured.
    public var root: String
    /// The root with every symlink resolved (for absolute paths shown to users and thumbnail URIs).
    public var rootRealPath: String
    /// The root folder, open: every photo is opened beneath it, so nothing outside it is ever read.
    /// Nil before the first scan and when the root could not be opened.
    public var rootDirectory: RootDirectory?
    /// "All Photos" first, then folder albums (root first, then natural order of their paths).
    public var albums: [Album]
    /// Files and folders left out of the index, with the reason (for logging).
    public var skipped: [SkippedEntry]
    /// When the scan finished (wall clock, seconds since 1970).
    public var scannedAtSeconds: Int64
    /// How long the scan took, in seconds.
    public var scanDurationSeconds: Double
    /// Why the last scan found nothing at all (the root could not be opened), if it failed.
    public var scanError: PickerError?

    /// Makes a snapshot; `albums` must start with "All Photos".
    public init(root: String, rootRealPath: String, rootDirectory: RootDirectory? = nil, albums: [Album],
                skipped: [SkippedEntry] = [], scannedAtSeconds: Int64 = 0, scanDurationSeconds: Double = 0) {
        self.root = root
        self.rootRealPath = rootRealPath
        self.rootDirectory = rootDirectory
        self.albums = albums
        self.skipped = skipped
        self.scannedAtSeconds = scannedAtSeconds
        self.scanDurationSeconds = scanDurationSeconds
        scanError = nil
    }

    /// A library with no photos yet (before the first scan), still listing "All Photos".
    public static func empty(root: String) -> LibrarySnapshot {
        LibrarySnapshot(root: root, rootRealPath: root,
                        albums: [Album(name: allPhotosName, kind: .allPhotos, photos: [])])
    }

    /// True once a scan has completed (an `empty` snapshot has not been scanned).
    public var hasBeenScanned: Bool { scannedAtSeconds != 0 }
    /// Every photo, newest first (the "All Photos" album).
    public var allPhotos: [Photo] { albums.first?.photos ?? [] }
    /// Number of photos in the library.
    public var photoCount: Int { allPhotos.count }
    /// Albums including "All Photos".
    public var albumCount: Int { albums.count }
    /// Folder albums only.
    public var folderAlbumCount: Int { albums.filter { !$0.isAllPhotos }.count }
    /// Files that may be images but could not be indexed (damaged header, unreadable).
    public var unindexedImageCount: Int {
        skipped.filter { $0.reason == .damagedHeader || $0.reason == .unreadable }.count
    }
    /// Files skipped because their content is not an image of a supported format (text files, TIFF...).
    public var skippedNonImageCount: Int { skipped.filter { $0.reason == .notAnImage }.count }
}

/// A file or folder the scan left out, and why.
public struct SkippedEntry: Sendable, Equatable {
    /// Why an entry was left out.
    public enum Reason: Sendable, Equatable {
        /// The bytes are not an image of a format `ImageCodecs` reads.
        case notAnImage
        /// A supported format whose header is damaged.
        case damagedHeader
        /// Could not be opened, listed or read (permissions, I/O error, name not UTF-8...).
        case unreadable
        /// A symlink whose target lies outside the library root.
        case outsideRoot
        /// A symlink whose target does not exist.
        case brokenSymlink
        /// Nesting deeper than the scanner follows.
        case tooDeep
    }

    /// Path relative to the root.
    public var relativePath: String
    /// Why it was left out.
    public var reason: Reason
    /// Human-readable detail for the log.
    public var message: String

    /// Makes a record of a skipped entry.
    public init(relativePath: String, reason: Reason, message: String) {
        self.relativePath = relativePath
        self.reason = reason
        self.message = message
    }
}
