#if canImport(Glibc)
import Glibc
#endif
import CPickerSys

/// Unix-domain stream sockets by path.
public enum UnixSocket {
    /// Longest socket path the kernel accepts (sun_path minus the NUL).
    public static var maxPathLength: Int { Int(pk_unix_path_max()) }

    /// A blocking connected socket; throws with call "connect" when nobody listens.
    public static func connect(path: String) throws(SystemError) -> Int32 {
        let fd = try retryingInterrupts("socket") { pk_unix_socket(0) }
        let rc = pk_connect_unix(fd, path)
        if rc != 0 {
            let e = Errno.current
            FileDescriptorIO.close(fd)
            throw SystemError("connect", e)
        }
        return fd
    }

    /// A non-blocking listening socket bound at `path` with mode 0600 (set before bind, so no umask race).
    public static func listen(path: String, backlog: Int32 = 128) throws(SystemError) -> Int32 {
        let fd = try retryingInterrupts("socket") { pk_unix_socket(1) }
        do {
            _ = try retryingInterrupts("fchmod") { fchmod(fd, 0o600) }
            _ = try retryingInterrupts("bind") { pk_bind_unix(fd, path) }
            _ = try retryingInterrupts("listen") { Glibc.listen(fd, backlog) }
        } catch {
            FileDescriptorIO.close(fd)
            throw error
        }
        return fd
    }

    /// The uid of the process at the other end (SO_PEERCRED).
    public static func peerUID(_ fd: Int32) throws(SystemError) -> uid_t {
        var uid: uid_t = 0
        var pid: pid_t = 0
        _ = try retryingInterrupts("getsockopt(SO_PEERCRED)") { pk_peer_credentials(fd, &uid, &pid) }
        return uid
    }

    /// A connected pair (`socketpair(2)`, close-on-exec); the first end non-blocking, for a
    /// server loop to adopt, the second blocking, for a client.
    public static func pair() throws(SystemError) -> (server: Int32, client: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try retryingInterrupts("socketpair") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        }
        let flags = fcntl(fds[0], F_GETFL)
        _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
        return (fds[0], fds[1])
    }

    /// Asks for a 1 MiB send buffer (`SO_SNDBUF`), so a typical image reply leaves in one write.
    /// Best effort: the kernel may give less.
    public static func enlargeSendBuffer(_ fd: Int32) {
        var bytes: Int32 = 1 << 20
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
    }
}
