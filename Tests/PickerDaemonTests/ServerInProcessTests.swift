#if canImport(Glibc)
import Glibc
#endif
@testable import PickerDaemon
import PickerProtocol
import PickerSystem
import Testing

/// The whole server loop in this process — real epoll, real sockets (socketpairs), the test's
/// own request handler — with the clock in the test's hand, so 10-second timeouts take microseconds.
@Suite struct ServerInProcessTests {
    private static func image(bytes: Int) -> Reply {
        .image(EncodedImage(format: .png, width: 1, height: 1, data: [UInt8](repeating: 7, count: bytes)))
    }

    private static func errorCode(_ reply: Reply?) -> ErrorCode? {
        if case .error(let e)? = reply { return e.code }
        return nil
    }

    @Test func aClientThatNeverSaysHelloIsClosedAfterTheHandshakeTimeout() throws {
        var limits = ServerLimits()
        limits.handshakeTimeout = 10
        let host = try InProcessServer(limits: limits) { _ in .pong(serverVersion: "x") }
        defer { host.stop() }
        let talker = try host.connect()
        let silent = try host.connect()
        // Two round trips: both connections are admitted at the start time before the clock moves.
        #expect(try talker.hello() != nil)
        try talker.send(.ping, id: 2)
        #expect(try talker.readReply() != nil)

        host.advance(by: 5)
        try talker.send(.ping, id: 3)
        #expect(try talker.readReply() != nil, "a connection that said hello is not timed out")
        host.advance(by: 6)
        let frame = try silent.readFrame()
        #expect(frame.map { try? Reply(frame: $0) }.flatMap(Self.errorCode) == .handshakeRequired)
        #expect(try silent.readFrame() == nil, "closed after the error")
        try talker.send(.ping, id: 4)
        #expect(try talker.readReply() != nil)
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeoutButASubscriberIsNot() throws {
        var limits = ServerLimits()
        limits.idleTimeout = 30
        let host = try InProcessServer(limits: limits) { _ in .pong(serverVersion: "x") }
        defer { host.stop() }
        let idle = try host.connect()
        let subscriber = try host.connect()
        #expect(try idle.hello() != nil)
        #expect(try subscriber.hello() != nil)
        try subscriber.send(.subscribe(Subscription(session: nil, library: true)), id: 2)
        #expect(try subscriber.readReply() != nil)

        host.advance(by: 20)
        try idle.send(.ping, id: 2)
        #expect(try idle.readReply() != nil, "20 s idle is within the limit, and the ping restarts it")
        host.advance(by: 31)
        #expect(try idle.readFrame() == nil, "closed after 31 s without a request")
        try subscriber.send(.ping, id: 3)
        #expect(try subscriber.readReply() != nil, "a subscriber waits for events, it is not idle")
    }

    @Test func aFatalFrameErrorClosesOnlyAfterTheRequestsBeforeItAreAnswered() throws {
        let host = try InProcessServer { _ in Self.image(bytes: 300_000) }
        defer { host.stop() }
        let client = try host.connect()
        #expect(try client.hello() != nil)
        // A status request, then a frame header claiming 16 MiB, in one write.
        try client.sendBytes(Request.status(session: "s").frame(id: 2).encoded() + [0x01, 0x00, 0x00, 0x00, 0x10])
        var ids: [UInt32: Reply] = [:]
        while let (id, reply) = try client.readReplyWithID() { ids[id] = reply }
        #expect(Self.errorCode(ids[0]) == .frameTooLarge)
        if case .image(let image)? = ids[2] {
            #expect(image.data.count == 300_000, "the reply in flight is sent whole before the close")
        } else {
            Issue.record("no reply to the request sent before the bad frame: \(ids)")
        }
    }

    @Test func pipelinedRepliesLargerThanTheOutputBoundAllArriveInOrder() throws {
        var limits = ServerLimits()
        limits.maxQueuedOutputBytes = 64 << 10
        let host = try InProcessServer(limits: limits) { _ in Self.image(bytes: 200_000) }
        defer { host.stop() }
        let client = try host.connect()
        #expect(try client.hello() != nil)
        let count: UInt32 = 40
        var pipelined: [UInt8] = []
        for id in 2..<(2 + count) { pipelined += Request.status(session: "s").frame(id: id).encoded() }
        try client.sendBytes(pipelined)
        var seen: [UInt32] = []
        for _ in 0..<count {
            guard let (id, reply) = try client.readReplyWithID() else { break }
            if case .image = reply { seen.append(id) }
        }
        #expect(seen == Array(2..<(2 + count)))
    }

    @Test func aSubscriberThatStopsReadingLosesItsSubscriptionWithTooBusy() throws {
        var limits = ServerLimits()
        limits.maxQueuedEventBytes = 4096
        let host = try InProcessServer(limits: limits) { _ in .pong(serverVersion: "x") }
        defer { host.stop() }
        let client = try host.connect()
        #expect(try client.hello() != nil)
        try client.send(.subscribe(Subscription(session: nil, library: true)), id: 7)
        #expect(try client.readReply() != nil)
        let info = LibraryInfo(root: "/" + String(repeating: "r", count: 200), albumCount: 1, photoCount: 1,
                               scanState: .ready, scannedAt: 0, skippedCount: 0)
        // Far more than the socket buffers hold plus the cap, published while the client reads nothing.
        for _ in 0..<6000 { host.server.publish(.library(info)) }
        try client.send(.ping, id: 8)
        var tooBusy: UInt32? = nil
        while let frame = try client.readFrame() {
            if frame.isEvent { continue }
            let reply = try Reply(frame: frame)
            if Self.errorCode(reply) == .tooBusy { tooBusy = frame.requestID }
            if case .pong = reply { break }
        }
        #expect(tooBusy == 7, "the too_busy error names the subscription")
    }

    @Test func aPeerThatVanishesMidReplyIsClosedAndOthersAreServed() throws {
        let host = try InProcessServer { request in
            if case .status = request { return Self.image(bytes: 8 << 20) }
            return .pong(serverVersion: "x")
        }
        defer { host.stop() }
        let leaving = try host.connect()
        let staying = try host.connect()
        #expect(try leaving.hello() != nil)
        #expect(try staying.hello() != nil)
        try leaving.send(.status(session: "s"), id: 2)
        var first = [UInt8](repeating: 0, count: 4096)
        #expect(first.withUnsafeMutableBytes { read(leaving.fd, $0.baseAddress, $0.count) } > 0, "the reply began")
        leaving.close()
        #expect(host.eventually { host.server.connectionCount == 1 }, "the vanished peer's connection is closed")
        try staying.send(.ping, id: 2)
        #expect(try staying.readReply() != nil)
    }
}
