#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few libc calls the library code needs, in one place: `EINTR` is retried,
/// failures come back as an `errno` value, descriptors are opened `O_CLOEXEC`.
enum LibrarySys {
    static let modeTypeMask: UInt32 = 0o170000
    static let modeDirectory: UInt32 = 0o040000
    static let modeRegular: UInt32 = 0o100000
    static let modeSymlink: UInt32 = 0o120000

    /// `strerror(3)` text for an `errno` value.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// `open(2)` read-only with `O_CLOEXEC | O_NOCTTY | O_NONBLOCK` (a FIFO swapped in never blocks us).
    static func openReadOnly(_ path: String, noFollow: Bool = false) -> Result<Int32, ErrnoCode> {
        var flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        if noFollow { flags |= O_NOFOLLOW }
        while true {
            let fd = open(path, flags)
            if fd >= 0 { return .success(fd) }
            let e = errno
            if e != EINTR { return .failure(ErrnoCode(e)) }
        }
    }

    /// `close(2)`, ignoring the result: the descriptor is gone either way on Linux.
    static func closeQuietly(_ fd: Int32) {
        _ = close(fd)
    }

    /// `fstat(2)`.
    static func fileStatus(_ fd: Int32) -> Result<stat, ErrnoCode> {
        var st = stat()
        if fstat(fd, &st) == 0 { return .success(st) }
        return .failure(ErrnoCode(errno))
    }

    /// `fstatat(2)` relative to a directory descriptor; `follow` selects whether a final symlink is followed.
    static func status(at dirFD: Int32, name: String, follow: Bool) -> Result<stat, ErrnoCode> {
        var st = stat()
        let flags: Int32 = follow ? 0 : AT_SYMLINK_NOFOLLOW
        if fstatat(dirFD, name, &st, flags) == 0 { return .success(st) }
        return .failure(ErrnoCode(errno))
    }

    /// `stat(2)` (follows symlinks).
    static func status(path: String) -> Result<stat, ErrnoCode> {
        var st = stat()
        if stat(path, &st) == 0 { return .success(st) }
        return .failure(ErrnoCode(errno))
    }

    /// `realpath(3)`: the canonical absolute path with every symlink resolved.
    static func realPath(_ path: String) -> Result<String, ErrnoCode> {
        guard let resolved = realpath(path, nil) else { return .failure(ErrnoCode(errno)) }
        defer { free(resolved) }
        guard let text = String(validatingCString: resolved) else { return .failure(ErrnoCode(EILSEQ)) }
        return .success(text)
    }

    /// `pread(2)` looping over short reads until `count` bytes or end of file.
    /// Returns the bytes read (fewer than `count` only at end of file).
    static func readFully(_ fd: Int32, at offset: Int, count: Int) -> Result<[UInt8], ErrnoCode> {
        guard count > 0, offset >= 0 else { return .success([]) }
        var failure: ErrnoCode?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                guard let base = buffer.baseAddress else { break }
                let n = pread(fd, base + done, count - done, off_t(offset + done))
                if n > 0 {
                    done += n
                } else if n == 0 {
                    break
                } else {
                    let e = errno
                    if e == EINTR { continue }
                    failure = ErrnoCode(e)
                    break
                }
            }
            initialized = done
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    static func isDirectory(_ st: stat) -> Bool { (UInt32(st.st_mode) & modeTypeMask) == modeDirectory }
    static func isRegular(_ st: stat) -> Bool { (UInt32(st.st_mode) & modeTypeMask) == modeRegular }
    static func isSymlink(_ st: stat) -> Bool { (UInt32(st.st_mode) & modeTypeMask) == modeSymlink }
}

/// An `errno` value kept as a value so unknown codes survive.
struct ErrnoCode: Error, Equatable, Sendable {
    var rawValue: Int32
    init(_ rawValue: Int32) { self.rawValue = rawValue }
    var description: String { LibrarySys.describe(rawValue) }
    var isNotFound: Bool { rawValue == ENOENT || rawValue == ENOTDIR }
}
