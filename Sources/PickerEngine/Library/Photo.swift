import PickerProtocol
import PickerSystem

/// One image file in the library, as indexed by a scan.
public struct Photo: Sendable, Equatable {
    /// Name of the folder album holding the photo (its path relative to the root).
    public var albumName: String
    /// The file's name in its folder, e.g. "IMG_0042.jpg".
    public var fileName: String
    /// Path relative to the library root, e.g. "2024/Kyoto/IMG_0042.jpg" (as walked, not symlink-resolved).
    public var relativePath: String
    /// For a symlinked file, its target's path relative to the root (what is opened); nil otherwise.
    public var targetPath: String?
    /// Format, stored size, orientation and EXIF date, from the file's header.
    public var header: ImageHeader
    /// File size in bytes at scan time.
    public var byteSize: Int64
    /// Modification time at scan time: whole seconds since 1970...
    public var mtimeSeconds: Int64
    /// ...and the nanoseconds within that second.
    public var mtimeNanoseconds: Int64
    /// Device of the file (the symlink target's, for a symlinked file); with `inode`, its identity.
    public var device: UInt64
    /// Inode of the file (the symlink target's, for a symlinked file).
    public var inode: UInt64
    /// The photo's date in seconds since 1970: EXIF DateTimeOriginal read as UTC, else the mtime.
    public var dateSeconds: Int64
    /// True when `dateSeconds` came from EXIF DateTimeOriginal rather than the mtime.
    public var dateIsFromExif: Bool

    /// Makes a photo record; `dateSeconds` and `dateIsFromExif` are derived from the header's
    /// DateTimeOriginal (read as UTC) when it is well-formed, else from the mtime.
    public init(albumName: String, fileName: String, relativePath: String, header: ImageHeader,
                byteSize: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64 = 0,
                device: UInt64 = 0, inode: UInt64 = 0, targetPath: String? = nil) {
        self.albumName = albumName
        self.fileName = fileName
        self.relativePath = relativePath
        self.header = header
        self.byteSize = byteSize
        self.mtimeSeconds = mtimeSeconds
        self.mtimeNanoseconds = mtimeNanoseconds
        self.device = device
        self.inode = inode
        self.targetPath = targetPath
        if let text = header.dateTimeOriginal, let seconds = ExifDateTime.secondsSinceEpoch(text) {
            dateSeconds = seconds
            dateIsFromExif = true
        } else {
            dateSeconds = mtimeSeconds
            dateIsFromExif = false
        }
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
    public var format: ImageFormat { header.format }
    /// Width after orientation (what the user sees).
    public var displayWidth: Int { header.displayWidth }
    /// Height after orientation (what the user sees).
    public var displayHeight: Int { header.displayHeight }
}
