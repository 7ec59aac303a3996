#if canImport(Glibc)
import Glibc
#endif
import CPickerSys

/// File system calls on descriptors: open relative to a directory (never by a full path that a
/// swapped folder could redirect), `fstat`, positioned reads. `EINTR` is retried; failures throw
/// `SystemError` naming the call.
public enum FileSystem {
    /// Flags for reading a file that may be anything: a FIFO or device swapped in must never block
    /// us or become our terminal, and no descriptor leaks into children.
    public static let readFlags: Int32 = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
    /// Flags for a folder to list or to open things under.
    public static let directoryFlags: Int32 = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK

    /// `open(2)` of a path the user configured (the library root itself); follows symlinks.
    public static func open(path: String, flags: Int32) throws(SystemError) -> Int32 {
        try retryingInterrupts("open") { Glibc.open(path, flags) }
    }

    /// `openat(2)` of one entry of a folder, never following a symlink there (`O_NOFOLLOW`).
    /// - Throws: `ELOOP` when `name` is a symlink.
    public static func openChild(of directory: Int32, name: String, flags: Int32) throws(SystemError) -> Int32 {
        try retryingInterrupts("openat") { openat(directory, name, flags | O_NOFOLLOW) }
    }

    /// Opens `relativePath` so that it cannot resolve outside `directory`: `openat2` with
    /// `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS` (symlinks that stay beneath keep working), or,
    /// where the kernel has no `openat2`, `openBeneathByComponents`.
    /// - Throws: `EXDEV` when the path (or a symlink on it) leads outside; `ENOENT`, `ELOOP`, ….
    public static func openBeneath(_ directory: Int32, _ relativePath: String, flags: Int32) throws(SystemError) -> Int32 {
        if kernelHasOpenat2 {
            return try retryingInterrupts("openat2") { pk_open_beneath(directory, relativePath, flags) }
        }
        return try openBeneathByComponents(directory, relativePath, flags: flags)
    }

    /// The fallback for kernels before 5.6: one `openat(O_NOFOLLOW)` per component, so no symlink
    /// is followed anywhere on the path (stricter than `openat2`: symlinks inside are refused too).
    /// - Throws: `EXDEV` for a ".." component, `ELOOP` for a symlink, and whatever `openat` says.
    public static func openBeneathByComponents(_ directory: Int32, _ relativePath: String, flags: Int32) throws(SystemError) -> Int32 {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard let last = parts.last else { return try openChild(of: directory, name: ".", flags: flags) }
        if parts.contains("..") { throw SystemError("openat", Errno(rawValue: EXDEV)) }
        var current = directory
        defer { if current != directory { close(current) } }
        for part in parts.dropLast() {
            let next = try openChild(of: current, name: String(part), flags: directoryFlags)
            if current != directory { close(current) }
            current = next
        }
        return try openChild(of: current, name: String(last), flags: flags)
    }

    /// Whether `openat2` works here (probed once: a kernel before 5.6, or a sandbox that filters
    /// the call, answers `ENOSYS` or `EPERM`).
    public static let kernelHasOpenat2: Bool = {
        let fd = pk_open_beneath(AT_FDCWD, ".", directoryFlags)
        if fd >= 0 { Glibc.close(fd); return true }
        return errno != ENOSYS && errno != EPERM
    }()

    /// `fstat(2)`.
    public static func status(_ fd: Int32) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try retryingInterrupts("fstat") { fstat(fd, &st) }
        return FileStatus(st)
    }

    /// `fstatat(2)` of one entry of a folder, without following a symlink there.
    public static func status(of name: String, in directory: Int32) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try retryingInterrupts("fstatat") { fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) }
        return FileStatus(st)
    }

    /// `realpath(3)`: the canonical absolute path with every symlink resolved.
    public static func realPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw SystemError("realpath") }
        defer { free(resolved) }
        guard let text = String(validatingCString: resolved) else { throw SystemError("realpath", Errno(rawValue: EILSEQ)) }
        return text
    }

    /// `pread(2)` looping over short reads until `count` bytes or end of file.
    /// - Returns: the bytes read (fewer than `count` only at end of file).
    public static func read(_ fd: Int32, at offset: Int, count: Int) throws(SystemError) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(SystemError) {
                initialized = try read(fd, at: offset, into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// `pread(2)` into `buffer`, looping over short reads until it is full or the file ends.
    /// - Returns: the bytes read (fewer than `buffer.count` only at end of file).
    public static func read(_ fd: Int32, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, offset >= 0 else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(fd, base + done, buffer.count - done, off_t(offset + done))
            if n > 0 { done += n; continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            throw SystemError("pread")
        }
        return done
    }

    /// `close(2)`, ignoring the result: the descriptor is gone either way on Linux.
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

extension FileSystem {
    /// True when the folder open at `fd` is on a file system whose changes inotify may not report:
    /// NFS, SMB/CIFS, FUSE (changes made by other machines, or by the FUSE daemon, arrive silently).
    public static func isRemoteOrFuse(_ fd: Int32) -> Bool {
        let type = pk_fs_type(fd)
        guard type != -1 else { return false }
        let remote: Set<UInt32> = [0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546]  // NFS, SMB, CIFS, SMB2, FUSE
        return remote.contains(UInt32(truncatingIfNeeded: type))
    }
}
