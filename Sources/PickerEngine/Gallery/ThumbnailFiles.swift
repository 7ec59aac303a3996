#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// The system calls the shared thumbnail cache needs: bounded whole-file reads, `mkdir -p`
/// with mode 0700, and replacing a file through a temporary file in the same folder.
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
        switch LibrarySys.openReadOnly(path) {
        case .success(let opened): fd = opened
        case .failure(let code):
            return code.isNotFound ? .missing : .unreadable("open: \(code.description)")
        }
        defer { LibrarySys.closeQuietly(fd) }
        let status: stat
        switch LibrarySys.fileStatus(fd) {
        case .success(let st): status = st
        case .failure(let code): return .unreadable("fstat: \(code.description)")
        }
        guard LibrarySys.isRegular(status) else { return .unreadable("not a regular file") }
        let size = Int(status.st_size)
        guard size <= maxBytes else { return .unreadable("\(size) bytes, more than the \(maxBytes) allowed") }
        switch LibrarySys.readFully(fd, at: 0, count: size) {
        case .success(let bytes): return .bytes(bytes)
        case .failure(let code): return .unreadable("read: \(code.description)")
        }
    }

    /// `mkdir -p` (`mkdir(2)`): every missing folder of the absolute path `dir` is created
    /// with mode 0700, as the thumbnail standard asks. Existing folders are left as they are.
    static func makeDirectories(_ dir: String) throws(SystemError) {
        var path = ""
        for part in dir.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o700) != 0 {
                let error = Errno.current
                if error.rawValue == EEXIST { continue }
                throw SystemError("mkdir \(path)", error)
            }
        }
    }

    /// Replaces `path` with `bytes` so readers see the old file or the new one, never a
    /// partial one: `mkstemp(3)` in the same folder (mode 0600), `write(2)` all, `fchmod(2)`
    /// 0600, `rename(2)` over. No fsync: this is a cache, and a file a crash leaves empty
    /// fails validation and is simply made again.
    static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var template = Array((dir + "/.pickerd-thumbnail-XXXXXX").utf8CString)
        let fd = try retryingInterrupts("mkstemp") { mkstemp(&template) }
        let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            defer { FileDescriptorIO.close(fd) }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var offset = 0
            while offset < bytes.count {
                let n = try bytes.withRawBytes { raw throws(SystemError) in
                    try retryingInterrupts("write") {
                        Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                    }
                }
                offset += n
            }
            _ = try retryingInterrupts("fchmod") { fchmod(fd, 0o600) }
            _ = try retryingInterrupts("rename") { rename(temp, path) }
        } catch {
            unlink(temp)
            throw error
        }
    }
}
