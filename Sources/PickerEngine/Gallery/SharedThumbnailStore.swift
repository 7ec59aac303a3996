import CPickerCodecs
import PickerProtocol
import PickerSystem
import Synchronization

/// The freedesktop.org thumbnail cache (Thumbnail Managing Standard 0.9.0), shared with file
/// managers and other viewers: `<cacheHome>/thumbnails/{normal,large,x-large,xx-large}/<md5>.png`,
/// where `<md5>` is the lower-case hex MD5 of the file's URI.
///
/// A thumbnail is valid for a photo only when its `Thumb::URI` text equals the photo's URI and
/// its `Thumb::MTime` equals the photo's modification time (whole seconds); anything else
/// (missing, stale, damaged, oversized) is a miss and is left in place for whoever wrote it.
/// Writes go through a temporary file in the same folder and a rename, folders are created 0700,
/// files 0600. Failures to write are logged and swallowed: a read-only or full cache must never
/// fail a request. Failed thumbnail generation is remembered under `fail/<app>-<version>/`.
///
/// Callers should only pass photos they could read (the standard's rule), and whole-second
/// `st_mtime` values. Safe to use from any thread: the store holds no mutable state besides
/// the "already reported a write failure" flag.
public final class SharedThumbnailStore: Sendable {
    /// `<cacheHome>/thumbnails`.
    public let thumbnailsDirectory: String
    /// The `Software` text written into thumbnails, e.g. "pickerd 0.1.0".
    public let software: String
    /// `<cacheHome>/thumbnails/fail/<app>-<version>`, this program's failure records.
    public let failureDirectory: String

    /// Thumbnail files larger than this are not read (an xx-large RGBA PNG stays far below).
    static let maxFileBytes = 32 << 20
    /// zlib level for thumbnails: fast, and they are small anyway.
    static let compressionLevel = 2

    /// Whether a write failure was already logged at error level (later ones go to debug,
    /// so a read-only cache does not flood the log with one line per grid cell).
    private let reportedWriteFailure = Mutex(false)

    /// - Parameters:
    ///   - cacheHome: `$XDG_CACHE_HOME`, or `~/.cache` when that is unset (see
    ///     `defaultCacheHome(environment:)`); thumbnails live in `cacheHome/thumbnails`.
    ///   - software: name and version, written as `Software` and naming the failure folder
    ///     (`"pickerd 0.1.0"` → `fail/pickerd-0.1.0`).
    public init(cacheHome: String, software: String = "pickerd 0.1.0") {
        var home = cacheHome
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        if home == "/" { home = "" }
        thumbnailsDirectory = home + "/thumbnails"
        self.software = software
        failureDirectory = thumbnailsDirectory + "/fail/" + Self.failureFolderName(software)
    }

    /// The XDG cache home: `$XDG_CACHE_HOME` when set to an absolute path, else `$HOME/.cache`.
    ///
    /// - Returns: nil when neither gives an absolute path.
    public static func defaultCacheHome(environment: [String: String] = Environment.current) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.cache"
        }
        return nil
    }

    // MARK: - Names

    /// The URI the cache hashes: `file://` + the path, escaped as GLib's `g_filename_to_uri`
    /// does (RFC 2396 path rules: letters, digits, `-_.!~*'():@&=+$,/` stay, the rest is `%XX`).
    public static func fileURI(forAbsolutePath path: String) -> String {
        FileURI.make(absolutePath: path)
    }

    /// Lower-case hex MD5 of the UTF-8 bytes of `s` (libcrypto).
    ///
    /// - Returns: 32 hex digits, or "" if libcrypto refuses MD5 (logged as a fault).
    public static func md5Hex(_ s: String) -> String {
        let input = Array(s.utf8)
        var digest = [UInt8](repeating: 0, count: Int(PK_MD5_DIGEST_LEN))
        var message = CodecResult.messageBuffer()
        let status = input.withUnsafeBufferPointer { bytes in
            pk_md5(bytes.baseAddress, bytes.count, &digest, &message)
        }
        guard status == 0 else {
            Log.fault("MD5 unavailable (status \(status)): \(CodecResult.text(message))")
            return ""
        }
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for byte in digest {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where the `flavor` thumbnail of the file at `path` lives (whether or not it exists).
    public func thumbnailPath(forAbsolutePath path: String, flavor: ThumbnailFlavor) -> String {
        thumbnailsDirectory + "/" + flavor.directoryName + "/" + Self.md5Hex(Self.fileURI(forAbsolutePath: path)) + ".png"
    }

    /// Where this program's failure record for the file at `path` lives.
    public func failurePath(forAbsolutePath path: String) -> String {
        failureDirectory + "/" + Self.md5Hex(Self.fileURI(forAbsolutePath: path)) + ".png"
    }

    // MARK: - Reading

    /// A valid thumbnail of the file at `absolutePath`, decoded.
    ///
    /// - Parameters:
    ///   - absolutePath: the photo's absolute path.
    ///   - mtime: the photo's modification time in whole seconds (`st_mtime`).
    ///   - flavor: which size folder to look in.
    /// - Returns: the pixels when the thumbnail exists, its `Thumb::URI` and `Thumb::MTime`
    ///   match, it decodes, and it fits the flavor's box; nil otherwise (missing, stale,
    ///   unreadable). Nothing is deleted: a stale or damaged file is just ignored and
    ///   overwritten by the next `store`.
    public func lookup(absolutePath: String, mtime: Int64, flavor: ThumbnailFlavor) -> PixelImage? {
        guard let name = cacheName(absolutePath) else { return nil }
        let path = thumbnailsDirectory + "/" + flavor.directoryName + "/" + name.file
        guard let bytes = readValid(path, uri: name.uri, mtime: mtime) else { return nil }
        let image: PixelImage
        do {
            image = try PNGDecoder.decode(bytes, maxPixels: flavor.rawValue * flavor.rawValue,
                                          photoName: "thumbnail \(path)")
        } catch {
            Log.error("shared thumbnail ignored: \(error.message)")
            return nil
        }
        guard max(image.width, image.height) <= flavor.rawValue else {
            Log.debug("shared thumbnail ignored: \(path) is \(image.width)x\(image.height), larger than \(flavor.directoryName)")
            return nil
        }
        return image
    }

    /// True when this program recorded that it could not make a thumbnail of the file at
    /// `absolutePath` as it was at `mtime` (a record for another mtime does not count).
    public func hasFailure(absolutePath: String, mtime: Int64) -> Bool {
        guard let name = cacheName(absolutePath) else { return false }
        return readValid(failureDirectory + "/" + name.file, uri: name.uri, mtime: mtime) != nil
    }

    /// The bytes of the cache file at `path` when its text chunks name `uri` and `mtime`.
    private func readValid(_ path: String, uri: String, mtime: Int64) -> [UInt8]? {
        let bytes: [UInt8]
        switch ThumbnailFiles.read(path, maxBytes: Self.maxFileBytes) {
        case .bytes(let read): bytes = read
        case .missing: return nil
        case .unreadable(let why):
            Log.error("shared thumbnail ignored: \(path): \(why)")
            return nil
        }
        guard let text = PNGTextChunks.read(bytes) else {
            Log.error("shared thumbnail ignored: \(path) is not a PNG")
            return nil
        }
        guard text["Thumb::URI"] == uri else {
            Log.debug("shared thumbnail ignored: \(path) has Thumb::URI \(text["Thumb::URI"] ?? "(none)"), not \(uri)")
            return nil
        }
        guard let stored = text["Thumb::MTime"].flatMap({ Int64($0) }), stored == mtime else {
            Log.debug("shared thumbnail stale: \(path) has Thumb::MTime \(text["Thumb::MTime"] ?? "(none)"), the file \(mtime)")
            return nil
        }
        return bytes
    }

    // MARK: - Writing

    /// Saves `image` as the `flavor` thumbnail of the file at `absolutePath`.
    ///
    /// Writes `Thumb::URI`, `Thumb::MTime`, `Thumb::Size` (when `fileSize` >= 0),
    /// `Thumb::Image::Width`/`Height` (when `originalSize` is given) and `Software`, to a
    /// temporary file in the flavor folder that is then renamed over the thumbnail. Failures
    /// are logged and swallowed.
    ///
    /// - Parameters:
    ///   - image: the thumbnail, already scaled to fit the flavor's box (upright); an image
    ///     larger than the box is refused (logged as a fault: a bug in the caller).
    ///   - absolutePath: the photo's absolute path; files inside the thumbnail folder itself
    ///     are never thumbnailed (the standard's rule).
    ///   - mtime: the photo's `st_mtime` in seconds, as read before it was decoded.
    ///   - fileSize: the photo's size in bytes, or a negative value to leave it out.
    ///   - flavor: the size folder.
    ///   - originalSize: the photo's full display size, for `Thumb::Image::Width`/`Height`.
    public func store(_ image: PixelImage, absolutePath: String, mtime: Int64, fileSize: Int64,
                      flavor: ThumbnailFlavor, originalSize: PixelSize? = nil) {
        guard max(image.width, image.height) <= flavor.rawValue else {
            Log.fault("shared thumbnail not stored: \(image.width)x\(image.height) does not fit \(flavor.directoryName) (\(flavor.rawValue) px)")
            return
        }
        guard let name = cacheName(absolutePath), !isInsideCache(absolutePath) else { return }
        var texts: [(key: String, value: String)] = [
            ("Thumb::URI", name.uri),
            ("Thumb::MTime", String(mtime)),
        ]
        if fileSize >= 0 { texts.append(("Thumb::Size", String(fileSize))) }
        if let originalSize {
            texts.append(("Thumb::Image::Width", String(originalSize.width)))
            texts.append(("Thumb::Image::Height", String(originalSize.height)))
        }
        texts.append(("Software", software))
        write(image, texts: texts, folder: thumbnailsDirectory + "/" + flavor.directoryName,
              file: name.file, what: "\(flavor.directoryName) thumbnail of \(absolutePath)")
    }

    /// Remembers that this program could not make a thumbnail of the file at `absolutePath` as
    /// it was at `mtime`: a 1x1 transparent PNG with `Thumb::URI`, `Thumb::MTime` and
    /// `Software` under `fail/<app>-<version>/`. Failures to write are logged and swallowed.
    public func recordFailure(absolutePath: String, mtime: Int64) {
        guard let name = cacheName(absolutePath), !isInsideCache(absolutePath) else { return }
        guard let empty = orLog("making a failure record", {
            try PixelImage(width: 1, height: 1, channels: 4, filledWith: RGBColor(red: 0, green: 0, blue: 0), alpha: 0)
        }) else { return }
        write(empty, texts: [("Thumb::URI", name.uri), ("Thumb::MTime", String(mtime)), ("Software", software)],
              folder: failureDirectory, file: name.file, what: "failure record for \(absolutePath)")
    }

    private func write(_ image: PixelImage, texts: [(key: String, value: String)], folder: String,
                       file: String, what: String) {
        let bytes: [UInt8]
        do {
            bytes = try PNGTextEncoder.encode(image, texts: texts, compressionLevel: Self.compressionLevel)
        } catch {
            Log.error("shared thumbnail cache: cannot encode the \(what): \(error.message)")
            return
        }
        do {
            try ThumbnailFiles.makeDirectories(folder)
            try ThumbnailFiles.replace(folder + "/" + file, with: bytes)
        } catch {
            let first = reportedWriteFailure.withLock { reported in
                defer { reported = true }
                return !reported
            }
            let line = "shared thumbnail cache: cannot write the \(what) in \(folder): \(error)"
            if first {
                Log.error(line + " (further write failures are logged at debug level)")
            } else {
                Log.debug(line)
            }
        }
    }

    // MARK: - Helpers

    /// The URI and the cache file name (`<md5>.png`) for a path; nil (logged) for a relative
    /// path or when MD5 is unavailable.
    private func cacheName(_ absolutePath: String) -> (uri: String, file: String)? {
        guard absolutePath.hasPrefix("/") else {
            Log.fault("shared thumbnail cache: not an absolute path: \(absolutePath)")
            return nil
        }
        let uri = Self.fileURI(forAbsolutePath: absolutePath)
        let hash = Self.md5Hex(uri)
        guard !hash.isEmpty else { return nil }
        return (uri, hash + ".png")
    }

    private func isInsideCache(_ absolutePath: String) -> Bool {
        absolutePath.hasPrefix(thumbnailsDirectory + "/")
    }

    /// `"pickerd 0.1.0"` → `"pickerd-0.1.0"`: characters other than letters, digits and
    /// `._+-` become `-`, so the name is one safe path component.
    static func failureFolderName(_ software: String) -> String {
        let safe = software.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "+", "-": return Character(scalar)
            default: return "-"
            }
        }
        let name = String(safe)
        return name.isEmpty || name == "." || name == ".." ? "pickerd" : name
    }
}
