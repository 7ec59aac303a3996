#if canImport(Glibc)
import Glibc
#endif

/// Why a state folder cannot be used.
public struct StateDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A private folder of the daemon (the state folder with `sessions.json`, the index folder with the
/// library index), held open by descriptor so every later read and write happens inside this very
/// folder, whatever is renamed or planted later. One owner of these rules for every such folder.
///
/// Opening it creates missing folders (mode 0700), opens the last one with
/// `O_DIRECTORY|O_NOFOLLOW` (a symlink there is refused) and checks it: a folder owned by
/// another uid is **refused**; one owned by us with group or other permission bits is
/// **tightened to 0700** with `fchmod(2)` and the change logged.
public final class StateDirectory: Sendable {
    /// The path it was opened by (for messages).
    public let path: String
    /// What the folder is, for messages ("state folder", "index folder").
    public let purpose: String
    /// The open folder (`O_DIRECTORY`); closed when this value goes away.
    public let descriptor: Int32

    /// What reading a file of the folder gave.
    public enum ReadResult: Equatable, Sendable {
        case bytes([UInt8])
        /// No such file: the ordinary first start.
        case missing
        /// Present but refused: a symlink, not a regular file, too big, or an I/O error.
        case refused(String)
    }

    /// What checking a file of the folder found (see `checkPrivateFile`).
    public enum FileCheck: Equatable, Sendable {
        /// A regular file of ours, at most 0600 (tightened if it was more).
        case ours
        case missing
        /// A symlink, not a regular file, or another uid's: never to be opened.
        case refused(String)
    }

    /// Creates (if needed), opens and checks the private folder at `path`.
    /// - Parameter purpose: what it is, for messages ("state folder", "index folder").
    /// - Throws: `StateDirectoryError` saying what is wrong and where.
    public init(path: String, purpose: String = "state folder") throws(StateDirectoryError) {
        do {
            try FileSystemPaths.makeDirectories(path, mode: 0o700)
        } catch {
            throw StateDirectoryError("cannot create the \(purpose) \(path): \(error)")
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let e = Errno.current
            let why = e.rawValue == ELOOP || e.rawValue == ENOTDIR ? "it is a symlink or not a folder" : "\(e)"
            throw StateDirectoryError("cannot open the \(purpose) \(path): \(why)")
        }
        do {
            try StateDirectory.checkOwnerAndMode(fd, path: path, purpose: purpose)
        } catch {
            FileDescriptorIO.close(fd)
            throw error
        }
        self.path = path
        self.purpose = purpose
        self.descriptor = fd
    }

    deinit { FileDescriptorIO.close(descriptor) }

    /// Refuses a folder of another uid; tightens group/other bits of ours to 0700 (`fstat(2)`, `fchmod(2)`).
    private static func checkOwnerAndMode(_ fd: Int32, path: String, purpose: String) throws(StateDirectoryError) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw StateDirectoryError("cannot stat the \(purpose) \(path): \(Errno.current)") }
        let me = geteuid()
        guard st.st_uid == me else {
            throw StateDirectoryError("the \(purpose) \(path) is owned by uid \(st.st_uid), not by this user (uid \(me)); refusing to use it")
        }
        let mode = st.st_mode & 0o7777
        guard mode & 0o077 != 0 else { return }
        guard fchmod(fd, 0o700) == 0 else {
            throw StateDirectoryError("the \(purpose) \(path) has mode \(octal(mode)) and cannot be tightened to 0700: \(Errno.current)")
        }
        Log.error("the \(purpose) \(path) had mode \(octal(mode)), open to other users; tightened to 0700")
    }

    /// Checks `name` before a library that opens files by path (SQLite) is let at it: it must be a
    /// regular file owned by this uid (`openat(2)` with `O_NOFOLLOW|O_NONBLOCK`, `fstat(2)`); group
    /// and other bits are taken away (`fchmod(2)` to 0600, logged). A file there is then only ever
    /// replaced by us: nobody else can write this 0700 folder.
    public func checkPrivateFile(_ name: String) -> FileCheck {
        let (fd, st): (Int32, stat)
        switch openRegular(name) {
        case .missing: return .missing
        case .refused(let why): return .refused(why)
        case .opened(let opened, let status): (fd, st) = (opened, status)
        }
        defer { FileDescriptorIO.close(fd) }
        guard st.st_uid == geteuid() else { return .refused("owned by uid \(st.st_uid), not by this user") }
        let mode = st.st_mode & 0o7777
        if mode & 0o077 != 0 {
            guard fchmod(fd, 0o600) == 0 else { return .refused("mode \(octal(mode)) cannot be tightened: \(Errno.current)") }
            Log.error("\(path)/\(name) had mode \(octal(mode)), open to other users; tightened to 0600")
        }
        return .ours
    }

    /// What `openRegular` found: the open descriptor and its status, nothing, or why it was refused.
    private enum OpenedFile {
        case opened(Int32, stat)
        case missing
        case refused(String)
    }

    /// Opens `name` for reading without following a symlink or waiting on a FIFO (`openat(2)` with
    /// `O_NOFOLLOW|O_NONBLOCK`) and keeps it only when `fstat(2)` says it is a regular file; the
    /// caller closes the descriptor.
    private func openRegular(_ name: String) -> OpenedFile {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = Errno.current
            if e == .noEntry { return .missing }
            return .refused(e.rawValue == ELOOP ? "it is a symlink" : "open: \(e)")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = "fstat: \(Errno.current)"
            FileDescriptorIO.close(fd)
            return .refused(why)
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            FileDescriptorIO.close(fd)
            return .refused("not a regular file")
        }
        return .opened(fd, st)
    }

    /// The folder's path with no symlink in it (`/proc/self/fd` of the open descriptor), checked to
    /// name this very folder: for a library that opens by path and refuses any symlink on the way
    /// (SQLite's `SQLITE_OPEN_NOFOLLOW`). Nil when it cannot be had or names another folder.
    public func resolvedPath() -> String? {
        guard let real = try? FileSystem.realPath("/proc/self/fd/\(descriptor)") else { return nil }
        var held = stat(), named = stat()
        guard fstat(descriptor, &held) == 0, lstat(real, &named) == 0,
              named.st_mode & S_IFMT == S_IFDIR, held.st_dev == named.st_dev, held.st_ino == named.st_ino else { return nil }
        return real
    }

    /// Removes `name` from the folder (`unlinkat(2)`; a symlink is removed, not followed).
    public func remove(_ name: String) {
        _ = unlinkat(descriptor, name, 0)
    }

    /// Reads the whole regular file `name` of at most `maxBytes` bytes (`openat(2)` with
    /// `O_NOFOLLOW|O_NONBLOCK`, so neither a symlink nor a FIFO planted there is followed or waited on).
    public func read(_ name: String, maxBytes: Int) -> ReadResult {
        let (fd, st): (Int32, stat)
        switch openRegular(name) {
        case .missing: return .missing
        case .refused(let why): return .refused(why)
        case .opened(let opened, let status): (fd, st) = (opened, status)
        }
        defer { FileDescriptorIO.close(fd) }
        let size = Int(st.st_size)
        guard size <= maxBytes else { return .refused("\(size) bytes, more than the \(maxBytes) allowed") }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { raw in pread(fd, raw.baseAddress.map { $0 + offset }, size - offset, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .refused("read: \(Errno.current)") }
            if n == 0 { break }
            offset += n
        }
        return .bytes(Array(bytes[0..<offset]))
    }

    /// Replaces `name` durably (see `AtomicFileWriter`).
    public func replace(_ name: String, with bytes: [UInt8]) throws(SystemError) {
        try AtomicFileWriter.replace(name, in: descriptor, with: bytes, durable: true)
    }

    /// Renames `name` to `newName` inside the folder (`renameat(2)`; a symlink is moved, not followed).
    public func rename(_ name: String, to newName: String) throws(SystemError) {
        _ = try retryingInterrupts("renameat") { renameat(descriptor, name, descriptor, newName) }
    }
}

private func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
