#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

/// A photo's file, open: the descriptor was opened beneath the library's root descriptor, so it
/// is inside the library whatever was swapped on the way. Closed when the object goes.
public final class OpenPhoto: Sendable {
    public let photo: Photo
    /// The open descriptor (read-only, non-blocking, close-on-exec).
    public let fd: Int32
    /// `fstat` of that descriptor: what a cache keys the photo's contents by.
    public let status: FileStatus

    init(photo: Photo, fd: Int32, status: FileStatus) {
        self.photo = photo
        self.fd = fd
        self.status = status
    }

    deinit { FileSystem.close(fd) }

    /// The file's identity, size and mtime now.
    public var version: FileVersion { status.version }

    /// How many bytes `readAll(maxBytes:)` would hold (for a memory estimate made before reading).
    public func bytesToRead(maxBytes: Int) -> Int {
        Int(min(max(0, status.size), Int64(maxBytes)))
    }

    /// Reads the file's first `count` bytes (all of it when it is shorter): where a JPEG keeps its
    /// EXIF thumbnail, so a grid cell can look for one without reading megabytes.
    /// - Throws: `.ioError` when the read fails.
    public func readPrefix(_ count: Int) throws(PickerError) -> [UInt8] {
        do throws(SystemError) {
            return try FileSystem.read(fd, at: 0, count: Int(min(Int64(max(0, count)), max(0, status.size))))
        } catch {
            throw PickerError(.ioError, "cannot read photo '\(photo.relativePath)': \(error.errno)")
        }
    }

    /// Reads the file's last `count` bytes (all of it when it is shorter).
    /// - Throws: `.ioError` when the read fails.
    public func readSuffix(_ count: Int) throws(PickerError) -> [UInt8] {
        let n = Int(min(Int64(max(0, count)), max(0, status.size)))
        do throws(SystemError) {
            return try FileSystem.read(fd, at: Int(max(0, status.size)) - n, count: n)
        } catch {
            throw PickerError(.ioError, "cannot read photo '\(photo.relativePath)': \(error.errno)")
        }
    }

    /// Reads the whole file.
    /// - Throws: `.imageTooLarge` above `maxBytes`, `.ioError` when the read fails.
    public func readAll(maxBytes: Int) throws(PickerError) -> [UInt8] {
        let name = photo.relativePath
        guard status.size <= Int64(maxBytes) else {
            throw PickerError(.imageTooLarge,
                              "photo '\(name)' is \(status.size) bytes; files over \(maxBytes / (1024 * 1024)) MiB are not read")
        }
        do throws(SystemError) {
            return try FileSystem.read(fd, at: 0, count: Int(status.size))
        } catch {
            throw PickerError(.ioError, "cannot read photo '\(name)': \(error.errno)")
        }
    }
}

extension PhotoLibrary {
    /// Opens a photo's file beneath the library root (see `RootDirectory`), for reading its pixels.
    /// - Throws: `.imageTooLarge` for a photo listed too large whose file is unchanged (every
    ///   render path refuses it here, before any estimate); `.noSuchPhoto` when the file is gone,
    ///   `.invalidName` when its path now leads outside the library (a folder on the way was swapped
    ///   for a symlink), `.ioError` otherwise; messages name the photo.
    public func openPhoto(_ photo: Photo) throws(PickerError) -> OpenPhoto {
        let open = try openFile(photo)
        if let reason = photo.tooLarge, open.version == photo.version {
            throw PickerError(.imageTooLarge, "'\(photo.relativePath)' is \(reason)")
        }
        return open
    }

    private func openFile(_ photo: Photo) throws(PickerError) -> OpenPhoto {
        let name = photo.relativePath
        guard let root = snapshot.rootDirectory else {
            throw PickerError(.noSuchPhoto, "photo '\(name)' is no longer in the library (the library folder is gone)")
        }
        let clean = try LibraryPath.validatedName(photo.openPath, what: "photo")
        do throws(SystemError) {
            let (fd, status) = try root.openFile(clean)
            return OpenPhoto(photo: photo, fd: fd, status: status)
        } catch {
            switch error.errno.rawValue {
            case ENOENT, ENOTDIR:
                throw PickerError(.noSuchPhoto, "photo '\(name)' is no longer in the library (moved or deleted?)")
            case EXDEV, ELOOP:
                throw PickerError(.invalidName, "photo '\(name)' now leads outside the library; not read")
            default:
                throw PickerError(.ioError, "cannot open photo '\(name)': \(error.errno)")
            }
        }
    }

    /// Opens and reads a photo's whole file; see `openPhoto(_:)` and `OpenPhoto.readAll(maxBytes:)`.
    public func readPhotoBytes(_ photo: Photo) throws(PickerError) -> [UInt8] {
        try openPhoto(photo).readAll(maxBytes: maxPhotoBytes)
    }
}
