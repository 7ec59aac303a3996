import PickerProtocol
import PickerSystem

/// One image file in the library, as indexed by a scan. A class with constant fields: albums, All
/// Photos and the path index share one record a photo (8 bytes a reference) instead of three copies
/// of ~200 bytes, and a rescan keeps the records of unchanged files as they are.
public final class Photo: Sendable, Equatable {
    /// Name of the folder album holding the photo (its path relative to the root).
    public let albumName: String
    /// The file's name in its folder, e.g. "IMG_0042.jpg".
    public let fileName: String
    /// Path relative to the library root, e.g. "2024/Kyoto/IMG_0042.jpg" (as walked, not symlink-resolved).
    public let relativePath: String
    /// For a symlinked file, its target's path relative to the root (what is opened); nil otherwise.
    public let targetPath: String?
    /// Format, stored size, orientation and EXIF date, from the file's header.
    public let header: ImageHeader
    /// File size in bytes at scan time.
    public let byteSize: Int64
    /// Modification time at scan time: whole seconds since 1970...
    public let mtimeSeconds: Int64
    /// ...and the nanoseconds within that second.
    public let mtimeNanoseconds: Int64
    /// Device of the file (the symlink target's, for a symlinked file); with `inode`, its identity.
    public let device: UInt64
    /// Inode of the file (the symlink target's, for a symlinked file).
    public let inode: UInt64
    /// The photo's date in seconds since 1970: EXIF DateTimeOriginal read as UTC, else the mtime.
    public let dateSeconds: Int64
    /// True when `dateSeconds` came from EXIF DateTimeOriginal rather than the mtime.
    public let dateIsFromExif: Bool
    /// Why the photo is listed but never decoded: its header declares more pixels than the cap
    /// ("too large: it declares …"). Its header then holds the format and no size (0×0), so no
    /// listing, index row or estimate holds the declared one. Nil for a photo that may be decoded.
    public let tooLarge: String?

    /// Makes a photo record; `dateSeconds` and `dateIsFromExif` are derived from the header's
    /// DateTimeOriginal (read as UTC) when it is well-formed (or given as `exifDateSeconds`, from the
    /// index), else from the mtime.
    public init(albumName: String, fileName: String, relativePath: String, header: ImageHeader,
                byteSize: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64 = 0,
                device: UInt64 = 0, inode: UInt64 = 0, targetPath: String? = nil, exifDateSeconds: Int64? = nil,
                tooLarge: String? = nil) {
        self.albumName = albumName
        self.fileName = fileName
        self.relativePath = relativePath
        // The EXIF date text is kept as seconds only (a 19-byte string a photo is ~64 bytes of heap).
        var kept = header
        kept.dateTimeOriginal = nil
        self.header = kept
        self.byteSize = byteSize
        self.mtimeSeconds = mtimeSeconds
        self.mtimeNanoseconds = mtimeNanoseconds
        self.device = device
        self.inode = inode
        self.targetPath = targetPath
        self.tooLarge = tooLarge
        if let seconds = exifDateSeconds ?? header.dateTimeOriginal.flatMap(ExifDateTime.secondsSinceEpoch) {
            dateSeconds = seconds
            dateIsFromExif = true
        } else {
            dateSeconds = mtimeSeconds
            dateIsFromExif = false
        }
    }

    /// The same record in another album (the root folder's album is named after the root).
    func inAlbum(_ name: String) -> Photo {
        guard name != albumName else { return self }
        return Photo(albumName: name, fileName: fileName, relativePath: relativePath, header: header, byteSize: byteSize,
                     mtimeSeconds: mtimeSeconds, mtimeNanoseconds: mtimeNanoseconds, device: device, inode: inode,
                     targetPath: targetPath, exifDateSeconds: dateIsFromExif ? dateSeconds : nil, tooLarge: tooLarge)
    }

    public static func == (a: Photo, b: Photo) -> Bool {
        a === b || (a.relativePath == b.relativePath && a.albumName == b.albumName && a.fileName == b.fileName
            && a.targetPath == b.targetPath && a.header == b.header && a.version == b.version && a.tooLarge == b.tooLarge)
    }

    /// The file's identity, size and mtime as indexed.
    public var version: FileVersion {
        FileVersion(identity: FileIdentity(device: device, inode: inode), size: byteSize, mtimeSeconds: mtimeSeconds,
                    mtimeNanoseconds: mtimeNanoseconds)
    }

    /// The path opened to read the photo, relative to the root: the symlink's target for a symlinked file.
    public var openPath: String { targetPath ?? relativePath }

    /// The photo's date, Unix seconds (same as `dateSeconds`): EXIF DateTimeOriginal read as UTC, else mtime.
    public var date: Int64 { dateSeconds }

    /// The file's format (from its bytes).
    public var format: PhotoFormat { header.format }
    /// Width after orientation (what the user sees).
    public var displayWidth: Int { header.displayWidth }
    /// Height after orientation (what the user sees).
    public var displayHeight: Int { header.displayHeight }
}
