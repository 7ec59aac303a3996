import Foundation
import PickerProtocol
import PickerSystem

/// A client connection that writes frames exactly as asked: several requests in one write, so
/// the daemon reads them in one go and acts on them before any of their work can finish.
/// (PickerConnection writes each request on its own.)
final class RawConnection {
    let fd: Int32
    private var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
    private var nextID: UInt32 = 2
    /// Request ids in the order their replies arrived.
    private(set) var arrivalOrder: [UInt32] = []

    /// Connects and says hello; fails unless the daemon answers with its own hello.
    init(socketPath: String, clientName: String, receiveTimeoutSeconds: Int = 60) throws {
        fd = try UnixSocket.connect(path: socketPath)
        var tv = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        try FileDescriptorIO.sendAll(fd, Request.hello(Hello(clientName: clientName)).frame(id: 1).encoded())
        guard let frame = try nextFrame(), case .hello = try Reply(frame: frame) else {
            FileDescriptorIO.close(fd)
            throw RawConnectionError.noHandshake
        }
    }

    deinit { FileDescriptorIO.close(fd) }

    /// Sends `requests` in a single write; their ids, in order. `build` gets the ids handed out
    /// so far, so a later request (a cancel) can name an earlier one.
    func sendInOneWrite(_ build: (_ ids: [UInt32]) -> Request, count: Int) throws -> [UInt32] {
        var ids: [UInt32] = []
        var bytes: [UInt8] = []
        for _ in 0..<count {
            let request = build(ids)
            bytes += request.frame(id: nextID).encoded()
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

    /// The next frame, or nil when the daemon closed (or the receive timeout passed).
    func nextFrame() throws -> Frame? {
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            if let frame = try decoder.next() { return frame }
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            decoder.append(buf[0..<n])
        }
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
}

enum RawConnectionError: Error {
    case noHandshake
    case closed(answered: [UInt32: Reply])
}
