#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// `--ready-fd N`: tells a supervisor (or a test) when pickerd is ready, like sd_notify's READY=1.
/// One line `listening` once the socket accepts, one line `scanned` once the first library scan
/// has ended; then the descriptor is closed. Written once each; a reader that went away costs
/// nothing (SIGPIPE is ignored, the write's error is dropped).
final class ReadyNotice: Sendable {
    private let fd = Mutex<Int32?>(nil)

    init(fd: Int32?) { self.fd.withLock { $0 = fd } }

    func listening() { write("listening\n", thenClose: false) }

    func scanned() { write("scanned\n", thenClose: true) }

    private func write(_ line: String, thenClose: Bool) {
        fd.withLock { fd in
            guard let open = fd else { return }
            var bytes = Array(line.utf8)
            _ = bytes.withUnsafeMutableBytes { Glibc.write(open, $0.baseAddress, $0.count) }
            if thenClose {
                close(open)
                fd = nil
            }
        }
    }
}
