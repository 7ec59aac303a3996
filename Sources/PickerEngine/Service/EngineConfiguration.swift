/// Settings the engine needs from the daemon's command line.
public struct EngineConfiguration: Sendable {
    /// `--max-megapixels`' default, 200 Mpx, in pixels.
    public static let defaultMaxPixels = 200_000_000
    public var libraryRoot: String
    /// Where sessions are saved; nil keeps them in memory.
    public var stateDirectory: String?
    public var cacheBytes: Int
    /// Images declaring more pixels than this are refused from their header (default 200 MP).
    public var maxPixels: Int
    public var serverVersion: String
    /// `$XDG_CACHE_HOME` (or `~/.cache`) for the shared freedesktop thumbnails; nil turns them off.
    public var thumbnailCacheHome: String?
    /// The one budget for concurrent decode and render work (see `WorkBudget`); 1 GiB by default,
    /// which holds the largest single job (an 8192×8192 PNG preview, about 700 MiB estimated).
    public var workBudgetBytes: Int = 1 << 30
    /// Photo files larger than this are refused, not read (100 MiB holds any camera file).
    public var maxPhotoBytes: Int = Self.defaultMaxPhotoBytes
    public static let defaultMaxPhotoBytes = 100 << 20
    /// Where the library index is kept (`$XDG_CACHE_HOME/pickerd`); nil: no index, every start scans.
    public var indexDirectory: String?
    /// General worker threads for request work (`pickerd --workers`; default: the cores).
    public var workers: Int = WorkerPool.defaultWorkers
    /// Whether photos next to the one a session looks at are rendered ahead (`--no-prefetch` turns it off).
    public var prefetch = true
    /// `pickerd --show-raw-pairs`: list both files of a RAW+JPEG pair, not one photo (`RawPairing`).
    public var showsRawPairs = false
    /// How photos are decoded: in a pool of sandboxed worker processes (the daemon's default), or
    /// in the calling thread (nil: engine tests, fuzzing, `pickerd --decode-in-process`).
    public var sandboxedDecoding: SandboxedDecoder.Settings? = nil

    public init(libraryRoot: String, stateDirectory: String?, cacheBytes: Int = 256 << 20,
                maxPixels: Int = Self.defaultMaxPixels, serverVersion: String, thumbnailCacheHome: String? = nil) {
        self.libraryRoot = libraryRoot
        self.stateDirectory = stateDirectory
        self.cacheBytes = cacheBytes
        self.maxPixels = maxPixels
        self.serverVersion = serverVersion
        self.thumbnailCacheHome = thumbnailCacheHome
    }
}
