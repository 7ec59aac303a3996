#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

/// Claims the socket path: refuses when a live daemon answers there, replaces a stale file,
/// creates the private fallback folder (0700) when needed.
enum ListeningSocket {
    static func claim(path: String) throws(PickerError) -> Int32 {
        guard path.utf8.count <= UnixSocket.maxPathLength else {
            throw PickerError(.invalidArgument,
                              "socket path is \(path.utf8.count) bytes; Unix sockets allow at most \(UnixSocket.maxPathLength): \(path)")
        }
        let dir = parentDirectory(of: path)
        if dir == DefaultSocketPath.fallbackDirectory {
            try ensurePrivateDirectory(dir)
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else {
                throw PickerError(.invalidArgument, "\(path) exists and is not a socket; refusing to replace it")
            }
            if let fd = try? UnixSocket.connect(path: path) {
                FileDescriptorIO.close(fd)
                throw PickerError(.invalidArgument, "another pickerd is already listening on \(path)")
            }
            Log.info("replacing stale socket \(path)")
            unlink(path)
        }
        do {
            return try UnixSocket.listen(path: path)
        } catch {
            throw PickerError(.ioError, "cannot listen on \(path): \(error)")
        }
    }

    static func ensurePrivateDirectory(_ dir: String) throws(PickerError) {
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw PickerError(.ioError, "cannot create \(dir): \(Errno.current)")
        }
        var st = stat()
        guard lstat(dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid() else {
            throw PickerError(.ioError, "\(dir) is not a folder owned by uid \(getuid()); refusing to use it")
        }
        // Ours but opened up (by hand, or by an old umask): tighten it, as pickerctl refuses anything but 0700.
        if st.st_mode & 0o077 != 0 {
            guard chmod(dir, 0o700) == 0 else {
                throw PickerError(.ioError, "\(dir) has mode \(String(st.st_mode & 0o7777, radix: 8)) and cannot be set to 700: \(Errno.current)")
            }
            Log.info("\(dir) had mode \(String(st.st_mode & 0o7777, radix: 8)); set it to 700")
        }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
