#if canImport(Glibc)
import Glibc
#endif

/// Outcome of a non-blocking read or write.
public enum IOProgress: Equatable, Sendable {
    case transferred(Int)
    case wouldBlock
    case endOfFile
}

public enum FileDescriptorIO {
    /// read(2) into `buffer`; EAGAIN and end-of-file are values, not errors.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOProgress {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .transferred(n) }
            if n == 0 { return .endOfFile }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return .wouldBlock }
            throw SystemError("read", e)
        }
    }

    /// send(2) with MSG_NOSIGNAL, so a vanished peer is an EPIPE error rather than SIGPIPE.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOProgress {
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .transferred(n) }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return .wouldBlock }
            throw SystemError("send", e)
        }
    }

    /// Sends every byte on a blocking descriptor, looping over short writes.
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let progress = try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }.get()
            switch progress {
            case .transferred(let n): offset += n
            case .wouldBlock, .endOfFile: throw SystemError("send", .wouldBlock)
            }
        }
    }

    /// Writes every byte to a blocking descriptor (`write(2)`), looping over short writes and
    /// retrying `EINTR`: the one write-all for files, pipes and terminals (sockets: `sendAll`).
    /// - Throws: `SystemError` naming `write` (EIO for a write that made no progress).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in
                    try retryingInterrupts("write") { Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset) }
                }
            }.get()
            if n == 0 { throw SystemError("write", Errno(rawValue: EIO)) }
            offset += n
        }
    }

    /// Reads exactly `count` bytes from a blocking descriptor; nil on end-of-file before any byte.
    public static func readExactly(_ fd: Int32, count: Int) throws(SystemError) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let progress = try out.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...])) }
            }.get()
            switch progress {
            case .transferred(let n): offset += n
            case .endOfFile:
                if offset == 0 { return nil }
                throw SystemError("read", Errno(rawValue: ECONNRESET))
            case .wouldBlock: throw SystemError("read", .wouldBlock)
            }
        }
        return out
    }

    /// close(2); errors are ignored because the descriptor is gone either way on Linux.
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
