import CPickerSandbox
import PickerProtocol
import PickerSystem
#if canImport(Glibc)
import Glibc
#endif

/// One end of a decoder worker's socketpair: messages with at most one descriptor attached
/// (SCM_RIGHTS), and the sealed memfds results travel in.
struct DescriptorChannel: Sendable {
    let fd: Int32

    /// A connected SOCK_SEQPACKET pair, close-on-exec.
    static func pair() throws(SystemError) -> (DescriptorChannel, DescriptorChannel) {
        var fds: [Int32] = [-1, -1]
        guard pk_seqpacket_pair(&fds) == 0 else { throw SystemError("socketpair", Errno.current) }
        return (DescriptorChannel(fd: fds[0]), DescriptorChannel(fd: fds[1]))
    }

    /// Sends one message, `descriptor` attached when given.
    func send(_ bytes: [UInt8], descriptor: Int32? = nil) throws(SystemError) {
        let n = bytes.withUnsafeBytes { pk_send_with_fd(fd, $0.baseAddress, $0.count, descriptor ?? -1) }
        guard n == bytes.count else { throw SystemError("sendmsg", n < 0 ? Errno.current : .init(rawValue: EMSGSIZE)) }
    }

    /// Receives one message and its descriptor (the caller owns it); nil when the peer has closed.
    func receive(capacity: Int = DecodeMessages.maxMessageBytes) throws(SystemError) -> (bytes: [UInt8], descriptor: Int32?)? {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var passed: Int32 = -1
        let n = buffer.withUnsafeMutableBytes { pk_recv_with_fd(fd, $0.baseAddress, $0.count, &passed) }
        guard n >= 0 else { throw SystemError("recvmsg", Errno.current) }
        guard n > 0 else {
            if passed >= 0 { FileSystem.close(passed) }
            return nil
        }
        return (Array(buffer.prefix(n)), passed >= 0 ? passed : nil)
    }

    /// Waits up to `milliseconds` for a message (or the peer's end): true when one can be read.
    func waitReadable(milliseconds: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) > 0
    }

    func close() { FileSystem.close(fd) }
}

/// Pixels in a sealed memfd: the worker writes them once, the daemon reads them after checking the seals.
enum SealedPixels {
    /// A memfd holding `bytes`, sealed against growing and shrinking (`pk_memfd_sealed`).
    static func make(_ bytes: [UInt8]) throws(SystemError) -> Int32 {
        let fd = bytes.withUnsafeBytes { pk_memfd_sealed($0.baseAddress, $0.count) }
        guard fd >= 0 else { throw SystemError("memfd_create", Errno.current) }
        return fd
    }

    /// Fails when `fd` is not a sealed memfd of exactly `count` bytes.
    static func check(_ fd: Int32, count: Int) throws(SystemError) {
        guard pk_memfd_check(fd, count) == 0 else { throw SystemError("memfd seals", Errno.current) }
    }
}
