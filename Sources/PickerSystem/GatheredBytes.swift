#if canImport(Glibc)
import Glibc
#endif

/// Buffers to be sent as one, in order (a `sendmsg(2)` iovec list), and their total size.
public struct GatheredBytes {
    public let buffers: [UnsafeRawBufferPointer]
    /// Total bytes.
    public let count: Int

    public init(_ buffers: [UnsafeRawBufferPointer]) {
        self.buffers = buffers
        count = buffers.reduce(0) { $0 + $1.count }
    }

    /// The buffers of `parts` from byte `offset` on, valid only inside `body`.
    public static func with<R>(_ parts: [[UInt8]], from offset: Int,
                               _ body: (GatheredBytes) throws(SystemError) -> R) throws(SystemError) -> R {
        try gather(parts, index: 0, skip: offset, into: [], body)
    }

    // Each part's pointer is valid only inside its own `withRawBytes`, so they nest.
    private static func gather<R>(_ parts: [[UInt8]], index: Int, skip: Int, into buffers: [UnsafeRawBufferPointer],
                                  _ body: (GatheredBytes) throws(SystemError) -> R) throws(SystemError) -> R {
        guard index < parts.count else { return try body(GatheredBytes(buffers)) }
        let part = parts[index]
        guard skip < part.count else {
            return try gather(parts, index: index + 1, skip: skip - part.count, into: buffers, body)
        }
        return try part.withRawBytes { raw throws(SystemError) in
            try gather(parts, index: index + 1, skip: 0, into: buffers + [UnsafeRawBufferPointer(rebasing: raw[skip...])], body)
        }
    }
}

extension FileDescriptorIO {
    /// sendmsg(2) of every buffer in one call, with MSG_NOSIGNAL (a vanished peer is EPIPE).
    public static func send(_ fd: Int32, _ gathered: GatheredBytes) throws(SystemError) -> IOProgress {
        if gathered.buffers.count == 1 { return try send(fd, gathered.buffers[0]) }
        var vectors = gathered.buffers.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        while true {
            let n = vectors.withUnsafeMutableBufferPointer { iov -> Int in
                var message = msghdr()
                message.msg_iov = iov.baseAddress
                message.msg_iovlen = iov.count
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            }
            if n >= 0 { return .transferred(n) }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return .wouldBlock }
            throw SystemError("sendmsg", e)
        }
    }
}
