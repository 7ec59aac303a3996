#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// The file access the shared thumbnail cache needs: bounded whole-file reads, `mkdir -p`
/// with mode 0700, and replacing a file atomically (both through PickerSystem).
/// `EINTR` is retried; failures come back as `SystemError` (naming the call) or a value.
enum ThumbnailFiles {
    /// What reading a cache file gave.
    enum ReadResult {
        case bytes([UInt8])
        /// No such file (or a folder on the way is missing): the ordinary cache miss.
        case missing
        /// Present but not readable as a whole: not a regular file, too big, or an I/O error.
        case unreadable(String)
    }

    /// Reads a whole regular file of at most `maxBytes` bytes (`open(2)`, `fstat(2)`, `pread(2)`).
    static func read(_ path: String, maxBytes: Int) -> ReadResult {
        let fd: Int32
        do throws(SystemError) {
            fd = try FileSystem.open(path: path, flags: FileSystem.readFlags)
        } catch {
            return error.errno == .noEntry || error.errno.rawValue == ENOTDIR ? .missing : .unreadable("open: \(error.errno)")
        }
        defer { FileSystem.close(fd) }
        let status: FileStatus
        do throws(SystemError) {
            status = try FileSystem.status(fd)
        } catch {
            return .unreadable("fstat: \(error.errno)")
        }
        guard status.isRegular else { return .unreadable("not a regular file") }
        guard status.size <= Int64(maxBytes) else { return .unreadable("\(status.size) bytes, more than the \(maxBytes) allowed") }
        do throws(SystemError) {
            return .bytes(try FileSystem.read(fd, at: 0, count: Int(status.size)))
        } catch {
            return .unreadable("read: \(error.errno)")
        }
    }

    /// `mkdir -p`: every missing folder of the absolute path `dir` is created with mode 0700,
    /// as the thumbnail standard asks. Existing folders are left as they are.
    static func makeDirectories(_ dir: String) throws(SystemError) {
        try FileSystemPaths.makeDirectories(dir, mode: 0o700)
    }

    /// Replaces `path` with `bytes` (mode 0600) so readers see the old file or the new one, never
    /// a partial one, and nothing planted in the folder is followed (see `AtomicFileWriter`).
    /// No fsync: this is a cache, and a file a crash leaves empty fails validation and is made again.
    static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        try AtomicFileWriter.replace(path: path, with: bytes, durable: false)
    }
}
