/// The handshake a client sends first.
public struct Hello: Sendable, Equatable {
    public var version: UInt16
    public var clientName: String
    /// Which `helloReply` extensions the client reads (entries are asks, usually empty).
    public var extensions: ExtensionArea
    public init(version: UInt16 = ProtocolLimits.version, clientName: String, extensions: ExtensionArea = .init()) {
        self.version = version
        self.clientName = clientName
        self.extensions = extensions
    }

    /// Extension tags of `hello`/`helloReply`.
    public enum Extension {
        /// `helloReply`: `idle_timeout:u32`, seconds an idle connection is kept (0: for ever).
        public static let idleTimeout: UInt8 = 1
    }
}

/// What the server states in its handshake reply.
public struct Capabilities: Sendable, Equatable {
    public var version: UInt16
    public var serverVersion: String
    public var maxRequestFrame: UInt32
    public var maxReplyFrame: UInt32
    public var inputFormats: [PhotoFormat]
    public var outputFormats: [ImageFormat]
    /// Fields added after the release, sent only when the `hello` asked for them (`answering`).
    public var extensions: ExtensionArea
    public init(version: UInt16, serverVersion: String, maxRequestFrame: UInt32, maxReplyFrame: UInt32,
                inputFormats: [PhotoFormat], outputFormats: [ImageFormat], extensions: ExtensionArea = .init()) {
        self.extensions = extensions
        self.version = version
        self.serverVersion = serverVersion
        self.maxRequestFrame = maxRequestFrame
        self.maxReplyFrame = maxReplyFrame
        self.inputFormats = inputFormats
        self.outputFormats = outputFormats
    }
}

extension Capabilities {
    /// Seconds the server keeps an idle connection (0: for ever); nil when not sent.
    public var idleTimeoutSeconds: UInt32? { try? extensions.u32(Hello.Extension.idleTimeout) }

    /// These capabilities as the reply to `hello`: only the extensions it asked for.
    public func answering(_ hello: Hello) -> Capabilities {
        var reply = self
        reply.extensions = extensions.answering(hello.extensions)
        return reply
    }
}

/// Library root, counts and scan state.
public struct LibraryInfo: Sendable, Equatable {
    /// Wire: u8. Open: a state a newer server adds is kept (a client reads it as "not ready").
    public struct ScanState: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let scanning = ScanState(rawValue: 0)
        public static let ready = ScanState(rawValue: 1)
    }
    public var root: String
    public var albumCount: Int
    public var photoCount: Int
    public var scanState: ScanState
    /// Unix seconds of the last completed scan, 0 if none.
    public var scannedAt: Int64
    /// Files under the root that look like images but could not be indexed.
    public var skippedCount: Int
    public init(root: String, albumCount: Int, photoCount: Int, scanState: ScanState, scannedAt: Int64, skippedCount: Int) {
        self.root = root
        self.albumCount = albumCount
        self.photoCount = photoCount
        self.scanState = scanState
        self.scannedAt = scannedAt
        self.skippedCount = skippedCount
    }
}

/// How far a library scan has got. Wire: `state:u8` (0 scanning, 1 ready), `files_done:u32`,
/// `files_expected:u32` (0 = not known yet), `elapsed_ms:u32` (since the scan started; of the last scan when ready).
public struct ScanProgress: Sendable, Equatable {
    public var state: LibraryInfo.ScanState
    public var filesDone: Int
    /// Files the scan expects to look at: those of the last scan (or the index) until the walk has
    /// found them all, then the real count; 0 when nothing is known yet.
    public var filesExpected: Int
    public var elapsedMilliseconds: Int
    public init(state: LibraryInfo.ScanState, filesDone: Int, filesExpected: Int, elapsedMilliseconds: Int) {
        self.state = state
        self.filesDone = filesDone
        self.filesExpected = filesExpected
        self.elapsedMilliseconds = elapsedMilliseconds
    }

    func encode(into w: inout ByteWriter) {
        w.u8(state.rawValue)
        w.count(filesDone)
        w.count(filesExpected)
        w.count(elapsedMilliseconds)
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> ScanProgress {
        return ScanProgress(state: LibraryInfo.ScanState(rawValue: try r.u8()), filesDone: Int(try r.u32()), filesExpected: Int(try r.u32()),
                            elapsedMilliseconds: Int(try r.u32()))
    }
}

/// Parameters of `session new`.
public struct NewSession: Sendable, Equatable {
    public var name: String
    public var width: Int
    /// nil: only the width bounds the image. Wire: 0.
    public var height: Int?
    /// nil: the default (10). Wire: 0.
    public var maxSelection: Int?
    /// nil: "Photo Library". Wire: empty string.
    public var title: String?
    /// The toggles the host app asked for, with their initial values (extension tag 1; none: no area).
    public var choices: [SessionChoice]
    /// File-name globs of the photos the session shows (extension tag 2; none: every photo).
    public var filter: [String]
    public init(name: String, width: Int, height: Int?, maxSelection: Int? = nil, title: String? = nil,
                choices: [SessionChoice] = [], filter: [String] = []) {
        self.name = name
        self.width = width
        self.height = height
        self.maxSelection = maxSelection
        self.title = title
        self.choices = choices
        self.filter = filter
    }
}

/// A session as clients see it: the reply to every session-changing request and `status`.
public struct SessionState: Sendable, Equatable {
    public var name: String
    public var title: String
    public var width: Int
    public var height: Int?
    public var maxSelection: Int
    public var selectionCount: Int
    /// Selected album's name and 1-based index; nil when none.
    public var album: String?
    public var albumIndex: Int?
    /// Current photo's name and 1-based index in the album; nil when none.
    public var photo: String?
    public var photoIndex: Int?
    /// Photos in the selected album (0 when none).
    public var photoCount: Int
    /// "WxH px, N bytes, FORMAT" for the current photo; empty otherwise.
    public var message: String
    public init(name: String, title: String, width: Int, height: Int?, maxSelection: Int, selectionCount: Int,
                album: String?, albumIndex: Int?, photo: String?, photoIndex: Int?, photoCount: Int, message: String) {
        self.name = name
        self.title = title
        self.width = width
        self.height = height
        self.maxSelection = maxSelection
        self.selectionCount = selectionCount
        self.album = album
        self.albumIndex = albumIndex
        self.photo = photo
        self.photoIndex = photoIndex
        self.photoCount = photoCount
        self.message = message
    }
}

/// One row of `albums`.
public struct AlbumInfo: Sendable, Equatable {
    public var index: Int
    public var name: String
    public var photoCount: Int
    public init(index: Int, name: String, photoCount: Int) {
        self.index = index
        self.name = name
        self.photoCount = photoCount
    }
}

/// One row of `photos`.
public struct PhotoInfo: Sendable, Equatable {
    /// Wire: u8. Open: a source a newer server adds is kept (read like `modified`: not from EXIF).
    public struct DateSource: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let modified = DateSource(rawValue: 0)
        public static let exif = DateSource(rawValue: 1)
    }
    public var index: Int
    public var name: String
    /// Path relative to the library root ("2024/Kyoto/IMG_0001.jpg"); unlike `name`, unique in "All Photos".
    public var path: String
    /// Displayed size, after EXIF orientation.
    public var width: Int
    public var height: Int
    public var bytes: Int64
    public var format: PhotoFormat
    /// Unix seconds (EXIF DateTimeOriginal read as UTC, else mtime).
    public var date: Int64
    public var dateSource: DateSource
    /// Why the photo cannot be shown (a decode of this version of its file failed); nil when it is
    /// not known broken. Travels only in a `photosPageReply` that was asked for broken marks.
    public var broken: String?
    public init(index: Int, name: String, path: String, width: Int, height: Int, bytes: Int64, format: PhotoFormat,
                date: Int64, dateSource: DateSource, broken: String? = nil) {
        self.broken = broken
        self.index = index
        self.name = name
        self.path = path
        self.width = width
        self.height = height
        self.bytes = bytes
        self.format = format
        self.date = date
        self.dateSource = dateSource
    }
}

/// Photos of the selected album.
public struct PhotoList: Sendable, Equatable {
    public var album: String
    public var photos: [PhotoInfo]
    public init(album: String, photos: [PhotoInfo]) {
        self.album = album
        self.photos = photos
    }
}

/// Parameters of `get-image`.
public struct ImageRequest: Sendable, Equatable {
    public var session: String
    public var format: ImageFormat
    /// 1...100; nil = the format's default. Wire: 0.
    public var quality: Int?
    public var noCache: Bool
    /// The terminal cells to draw in (flags bit 1); required for `symbols`.
    public var cells: TerminalCells?
    public init(session: String, format: ImageFormat = .png, quality: Int? = nil, noCache: Bool = false,
                cells: TerminalCells? = nil) {
        self.session = session
        self.format = format
        self.quality = quality
        self.noCache = noCache
        self.cells = cells
    }
}

/// An encoded picture.
public struct EncodedImage: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var data: [UInt8]
    /// The symbol class a `symbols` picture was drawn with, in the reply's extension area; only
    /// when the request asked for a class (nil otherwise, and from a server that knows no classes).
    public var symbols: SymbolClass?
    /// Where a 1:1 preview's window lies in the photo (reply extension tag 2); only for a `preview` that asked.
    public var zoom: ZoomWindow?
    public init(format: ImageFormat, width: Int, height: Int, data: [UInt8], symbols: SymbolClass? = nil,
                zoom: ZoomWindow? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.data = data
        self.symbols = symbols
        self.zoom = zoom
    }

    /// This picture as the reply to a request for `cells`: it names the class it was drawn with
    /// when the request asked for one and the picture is `symbols`, and nothing otherwise.
    public func answering(_ cells: TerminalCells?) -> EncodedImage {
        var reply = self
        reply.symbols = format == .symbols && cells?.symbols != nil ? cells?.drawnSymbols : nil
        return reply
    }
}
