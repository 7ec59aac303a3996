#if canImport(Glibc)
import Glibc
#endif
import CPickerSys

/// The one way pickerd replaces a file: readers see the old content or the new, never a torn
/// file, and nothing planted in the folder is followed.
///
/// A temp file with an unpredictable name is created relative to a folder descriptor with
/// `O_CREAT|O_EXCL|O_NOFOLLOW` (so a planted file or symlink at that name is never opened),
/// written fully, optionally fsync'd, `renameat(2)`'d over the target (which replaces a
/// symlink there rather than following it), and the folder fsync'd. On any failure (ENOSPC,
/// EIO…) the temp file is removed and the previous file is left as it was.
public enum AtomicFileWriter {
    /// Replaces `name` inside the open folder `directory` with `bytes`.
    ///
    /// - Parameters:
    ///   - name: a plain file name (no `/`).
    ///   - directory: a descriptor of the folder (`O_DIRECTORY`).
    ///   - bytes: the new content.
    ///   - mode: the new file's permission bits before the umask (default 0600: private).
    ///   - durable: fsync the file before the rename and the folder after it (state files);
    ///     false for caches, where a file a crash leaves empty is simply made again.
    /// - Throws: `SystemError` naming the failed call (`openat`, `write`, `fsync`, `renameat`).
    public static func replace(_ name: String, in directory: Int32, with bytes: [UInt8], mode: mode_t = 0o600,
                               durable: Bool) throws(SystemError) {
        let (fd, temp) = try createTemporary(for: name, in: directory, mode: mode)
        do {
            defer { FileDescriptorIO.close(fd) }
            reserveSpace(fd, bytes.count)
            try FileDescriptorIO.writeAll(fd, bytes)
            if durable { _ = try retryingInterrupts("fsync") { fsync(fd) } }
            _ = try retryingInterrupts("renameat") { renameat(directory, temp, directory, name) }
        } catch {
            _ = unlinkat(directory, temp, 0)
            throw error
        }
        if durable { _ = try retryingInterrupts("fsync (folder)") { fsync(directory) } }
    }

    /// Replaces the file at `path`: its folder is opened as the path names it (`O_DIRECTORY`) and
    /// the file replaced inside it; nothing planted inside the folder is followed.
    public static func replace(path: String, with bytes: [UInt8], mode: mode_t = 0o600,
                               durable: Bool) throws(SystemError) {
        let (folder, name) = split(path)
        let dfd = try retryingInterrupts("open \(folder)") {
            open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        defer { FileDescriptorIO.close(dfd) }
        try replace(name, in: dfd, with: bytes, mode: mode, durable: durable)
    }

    /// A path's folder (`.` when it names none) and file name.
    static func split(_ path: String) -> (folder: String, name: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return (folder, name)
    }

    /// `openat(2)` of a fresh `.NAME.tmp-RANDOM` with `O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC`,
    /// mode `mode`; a name that already exists (planted or left over) is skipped for another.
    static func createTemporary(for name: String, in directory: Int32,
                                        mode: mode_t) throws(SystemError) -> (Int32, String) {
        var attempt = 0
        while true {
            let temp = ".\(name).tmp-\(randomHex())"
            let fd = openat(directory, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, temp) }
            let error = Errno.current
            attempt += 1
            if error == .interrupted || (error.rawValue == EEXIST && attempt < 16) { continue }
            throw SystemError("openat \(temp)", error)
        }
    }

    /// Allocates the temp file's blocks before it is written. ext4 (and btrfs) flush a file's
    /// delayed allocation when it is renamed over an existing one — the rename then waits for
    /// block allocation (~0.3–0.9 ms for a 300 KB picture); with the blocks already allocated
    /// it does not. Where the file system cannot (EOPNOTSUPP) or the disk is full, the write
    /// that follows goes on as before and reports what fails.
    private static func reserveSpace(_ fd: Int32, _ count: Int) {
        _ = pk_reserve_file_space(fd, Int64(count))
    }

    /// 64 random bits in hex (the standard library's generator reads `getrandom(2)`).
    private static func randomHex() -> String {
        let value = UInt64.random(in: UInt64.min...UInt64.max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
