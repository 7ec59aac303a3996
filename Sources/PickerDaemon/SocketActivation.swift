#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// systemd socket activation: a listening socket handed over as fd 3 (`LISTEN_FDS`, `LISTEN_PID`).
enum SocketActivation {
    /// The inherited listening socket, made non-blocking and close-on-exec, or nil when not activated.
    static func inheritedListener(environment env: [String: String]) -> Int32? {
        guard let pid = env["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
              let count = env["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1 else { return nil }
        let fd: Int32 = 3  // SD_LISTEN_FDS_START
        if count > 1 { Log.error("socket activation passed \(count) sockets; using the first (fd 3)") }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // Children must not think the socket is theirs.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return fd
    }
}
