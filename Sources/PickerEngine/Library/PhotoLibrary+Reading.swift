#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PickerProtocol

/// A photo's bytes with the identity the file had when they were read (for cache keys:
/// an edited file gets a new size or mtime and is never served stale).
public struct PhotoFile: Sendable {
    /// The whole file.
    public var bytes: [UInt8]
    /// Size from `fstat` of the descriptor that was read.
    public var size: Int64
    /// Modification time from the same `fstat`: seconds...
    public var mtimeSeconds: Int64
    /// ...and nanoseconds.
    public var mtimeNanoseconds: Int64
    /// Device of the file read.
    public var device: UInt64
    /// Inode of the file read.
    public var inode: UInt64
}

extension PhotoLibrary {
    /// Reads a photo's file into memory for decoding; see `readPhotoFile(_:)`.
    public func readPhotoBytes(_ photo: Photo) throws(PickerError) -> [UInt8] {
        try readPhotoFile(photo).bytes
    }

    /// Reads a photo's file into memory for decoding, with its identity at read time.
    ///
    /// The path is resolved again with realpath and must still lie inside the root; the file
    /// is opened `O_CLOEXEC | O_NOFOLLOW` at its resolved path and read with a loop over short reads.
    /// - Throws: `.noSuchPhoto` when the file is gone, `.invalidName` when it now leads outside
    ///   the root, `.imageTooLarge` above `maxPhotoBytes`, `.ioError` otherwise; messages name the photo.
    public func readPhotoFile(_ photo: Photo) throws(PickerError) -> PhotoFile {
        let rootReal = snapshot.rootRealPath
        let path = try LibraryPath.resolveInside(rootRealPath: rootReal, relativePath: photo.relativePath)
        let name = photo.relativePath
        let fd: Int32
        switch LibrarySys.openReadOnly(path, noFollow: true) {
        case .success(let opened): fd = opened
        case .failure(let e):
            if e.isNotFound { throw PickerError(.noSuchPhoto, "photo '\(name)' is no longer in the library") }
            throw PickerError(.ioError, "cannot open photo '\(name)': \(e.description)")
        }
        defer { LibrarySys.closeQuietly(fd) }
        let st: stat
        switch LibrarySys.fileStatus(fd) {
        case .success(let found): st = found
        case .failure(let e): throw PickerError(.ioError, "cannot stat photo '\(name)': \(e.description)")
        }
        guard LibrarySys.isRegular(st) else {
            throw PickerError(.ioError, "photo '\(name)' is no longer a regular file")
        }
        let size = Int(st.st_size)
        guard size <= maxPhotoBytes else {
            throw PickerError(.imageTooLarge,
                              "photo '\(name)' is \(size) bytes; files over \(maxPhotoBytes / (1024 * 1024)) MiB are not read")
        }
        switch LibrarySys.readFully(fd, at: 0, count: size) {
        case .success(let bytes):
            return PhotoFile(bytes: bytes, size: Int64(bytes.count), mtimeSeconds: Int64(st.st_mtim.tv_sec),
                             mtimeNanoseconds: Int64(st.st_mtim.tv_nsec),
                             device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        case .failure(let e): throw PickerError(.ioError, "cannot read photo '\(name)': \(e.description)")
        }
    }
}
