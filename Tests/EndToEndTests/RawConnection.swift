import Foundation
import PickerProtocol
import PickerSystem

/// One connection speaking the wire protocol by hand, for claims `pickerctl` cannot show
/// (pipelining, half-close, a second hello).
/// Also for writing several requests in one write, so the daemon reads them in one go and acts
/// on them before any of their work can finish (PickerConnection writes each request on its own).
final class RawConnection {
    let fd: Int32
    private var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
    private var nextID: UInt32 = 2
    /// Request ids in the order their replies arrived (`replies(to:)`).
    private(set) var arrivalOrder: [UInt32] = []

    /// Connects; every read gives up after `timeoutSeconds` so a hung daemon fails the test instead of
    /// hanging it. A hang guard, not a measurement: a debug daemon on a loaded 2-core machine has taken
    /// over 20 s for one large render.
    init(path: String, timeoutSeconds: Int = 120) throws {
        fd = try UnixSocket.connect(path: path)
        setReceiveTimeout(fd, seconds: timeoutSeconds)
    }

    /// Connects and says hello; fails unless the daemon answers with its own hello.
    convenience init(socketPath: String, clientName: String, receiveTimeoutSeconds: Int = 120) throws {
        try self.init(path: socketPath, timeoutSeconds: receiveTimeoutSeconds)
        try send(.hello(Hello(clientName: clientName)), id: 1)
        guard let frame = try nextFrame(), case .hello = try Reply(frame: frame) else { throw RawConnectionError.noHelloReply }
    }

    deinit { FileDescriptorIO.close(fd) }

    /// Sends requests in a single write; their ids, in order. `build` gets the ids handed out
    /// so far, so a later request (a cancel) can name an earlier one.
    func sendInOneWrite(_ build: (_ ids: [UInt32]) -> Request, count: Int) throws -> [UInt32] {
        var ids: [UInt32] = []
        var bytes: [UInt8] = []
        for _ in 0..<count {
            bytes += build(ids).frame(id: nextID).encoded()
            ids.append(nextID)
            nextID += 1
        }
        try FileDescriptorIO.sendAll(fd, bytes)
        return ids
    }

    /// Sends `requests` in a single write; their ids, in order.
    func sendInOneWrite(_ requests: [Request]) throws -> [UInt32] {
        try sendInOneWrite({ ids in requests[ids.count] }, count: requests.count)
    }

    /// Replies (events skipped) until every id in `ids` has one; throws if the connection ends first.
    func replies(to ids: [UInt32]) throws -> [UInt32: Reply] {
        var replies: [UInt32: Reply] = [:]
        while !Set(ids).isSubset(of: Set(replies.keys)) {
            guard let frame = try nextFrame() else { throw RawConnectionError.closed(answered: replies) }
            if !frame.isEvent {
                replies[frame.requestID] = try Reply(frame: frame)
                arrivalOrder.append(frame.requestID)
            }
        }
        return replies
    }

    func send(_ request: Request, id: UInt32) throws {
        try FileDescriptorIO.sendAll(fd, request.frame(id: id).encoded())
    }

    /// Sends many requests in one write (pipelined).
    func sendAll(_ requests: [(UInt32, Request)]) throws {
        try FileDescriptorIO.sendAll(fd, requests.flatMap { $0.1.frame(id: $0.0).encoded() })
    }

    /// `shutdown(SHUT_WR)`: no more requests from us.
    func closeWritingHalf() { shutdown(fd, Int32(SHUT_WR)) }

    /// `hello` then its reply.
    func handshake() throws {
        try send(.hello(Hello(clientName: "claims-test")), id: 1)
        guard let frame = try nextFrame(), case .hello = try Reply(frame: frame) else { throw RawConnectionError.noHelloReply }
    }

    enum ReadEnd: Equatable { case closed, timedOut }

    /// The next frame, or nil when the daemon closed the connection; throws on a timeout.
    func nextFrame() throws -> Frame? {
        let (frame, end) = try nextFrameOrEnd()
        if end == .timedOut { throw RawConnectionError.timedOut }
        return frame
    }

    /// Reads frames until the daemon closes (`.closed`) or a read times out (`.timedOut`).
    func readUntilEnd() throws -> (frames: [Frame], end: ReadEnd) {
        var frames: [Frame] = []
        while true {
            let (frame, end) = try nextFrameOrEnd()
            guard let frame else { return (frames, end ?? .closed) }
            frames.append(frame)
        }
    }

    private func nextFrameOrEnd() throws -> (Frame?, ReadEnd?) {
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            if let f = try decoder.next() { return (f, nil) }
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return (nil, .closed) }
            if n < 0 {
                if errno == EINTR { continue }
                return (nil, errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .closed)
            }
            decoder.append(buf[0..<n])
        }
    }
}


enum RawConnectionError: Error {
    case noHelloReply
    case timedOut
    case closed(answered: [UInt32: Reply])
}

/// One whole frame read from a raw socket, or nil at end of file (or after the receive timeout).
func readFrame(_ fd: Int32) throws -> Frame? {
    guard let header = try FileDescriptorIO.readExactly(fd, count: 4) else { return nil }
    let len = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
    guard let body = try FileDescriptorIO.readExactly(fd, count: len) else { return nil }
    var d = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
    d.append(header + body)
    return try d.next()
}

/// `SO_RCVTIMEO`: a read on `fd` gives up after `seconds`, so a hung daemon fails a test instead of hanging it.
func setReceiveTimeout(_ fd: Int32, seconds: Int) {
    var tv = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
}
