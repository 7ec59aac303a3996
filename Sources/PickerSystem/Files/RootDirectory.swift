#if canImport(Glibc)
import Glibc
#endif

/// An open folder under which every file is opened: the one safe way to read anything in the
/// photo library. Paths are resolved by the kernel relative to this descriptor and may not leave it,
/// so swapping a folder on the way for a symlink to elsewhere, at any moment, opens nothing outside.
/// The descriptor lives as long as the object.
public final class RootDirectory: Sendable {
    /// The descriptor of the folder.
    public let descriptor: Int32
    /// The folder's canonical path, as it was when opened (for messages and for URIs).
    public let path: String
    /// The folder's own status when opened.
    public let status: FileStatus

    /// Opens the folder at `path` (the configured root: symlinks in it are followed, once, now).
    /// - Throws: what `realpath`/`open` say; `ENOTDIR` when it is not a folder.
    public init(path: String) throws(SystemError) {
        let real = try FileSystem.realPath(path)
        let fd = try FileSystem.open(path: real, flags: FileSystem.directoryFlags)
        do throws(SystemError) {
            status = try FileSystem.status(fd)
        } catch {
            FileSystem.close(fd)
            throw error
        }
        descriptor = fd
        self.path = real
    }

    deinit { FileSystem.close(descriptor) }

    /// What is at the configured `path` now (`stat(2)`, following symlinks as `init(path:)` does):
    /// compared with `status.identity` it tells whether this descriptor is still the folder at the
    /// path, or the folder was deleted, moved away or replaced since it was opened.
    /// - Returns: the identity, or nil when nothing can be looked at there (`ENOENT`, `EACCES`, …).
    public static func identity(atPath path: String) -> FileIdentity? {
        var st = stat()
        while true {
            if stat(path, &st) == 0 { return FileStatus(st).identity }
            if errno != EINTR { return nil }
        }
    }

    /// Opens a regular file at `relativePath` beneath the folder, read-only and non-blocking.
    /// - Returns: the descriptor (the caller closes it) and its `fstat`.
    /// - Throws: `EXDEV` when the path leads outside, `EISDIR`/`ENODEV`-like errors as `openat2`
    ///   says, and `EFTYPE`-style `EINVAL` when what was opened is not a regular file.
    public func openFile(_ relativePath: String) throws(SystemError) -> (fd: Int32, status: FileStatus) {
        let fd = try FileSystem.openBeneath(descriptor, relativePath, flags: FileSystem.readFlags)
        let st: FileStatus
        do throws(SystemError) {
            st = try FileSystem.status(fd)
        } catch {
            FileSystem.close(fd)
            throw error
        }
        guard st.isRegular else {
            FileSystem.close(fd)
            throw SystemError("open", Errno(rawValue: st.isDirectory ? EISDIR : EINVAL))
        }
        return (fd, st)
    }

    /// Opens a folder at `relativePath` beneath this one ("" is this folder itself, duplicated).
    public func openDirectory(_ relativePath: String) throws(SystemError) -> Int32 {
        if relativePath.isEmpty { return try FileSystem.openChild(of: descriptor, name: ".", flags: FileSystem.directoryFlags) }
        return try FileSystem.openBeneath(descriptor, relativePath, flags: FileSystem.directoryFlags)
    }

    /// The path of `absolutePath` relative to this folder, when it lies inside it (nil otherwise).
    public func relativePath(of absolutePath: String) -> String? {
        if absolutePath == path { return "" }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard absolutePath.hasPrefix(prefix) else { return nil }
        return String(absolutePath.dropFirst(prefix.count))
    }
}
