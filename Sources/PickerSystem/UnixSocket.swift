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
}
