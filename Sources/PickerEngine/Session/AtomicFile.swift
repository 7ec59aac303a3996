#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// Replaces a file so that readers see the old or the new content, never a torn one,
/// even across a crash: write a temp file, fsync it, rename it over, fsync the folder.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try makeDirectories(dir)
        let temp = path + ".tmp-\(getpid())"
        let fd = try retryingInterrupts("open") { open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        do {
            defer { FileDescriptorIO.close(fd) }
            var offset = 0
            while offset < bytes.count {
                let n = try bytes.withRawBytes { raw throws(SystemError) in
                    try retryingInterrupts("write") { Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset) }
                }
                offset += n
            }
            _ = try retryingInterrupts("fsync") { fsync(fd) }
        } catch {
            unlink(temp)
            throw error
        }
        _ = try retryingInterrupts("rename") { rename(temp, path) }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            FileDescriptorIO.close(dfd)
        }
    }

    /// mkdir -p with mode 0700.
    static func makeDirectories(_ dir: String) throws(SystemError) {
        var path = dir.hasPrefix("/") ? "" : "."
        for part in dir.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw SystemError("mkdir \(path)")
            }
        }
    }
}
