#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
@testable import PickerDaemon
import PickerEngine
import PickerProtocol
import PickerSystem
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds = Mutex<Double>(1000)
    var clock: ServerClock { ServerClock { [self] in seconds.withLock { $0 } } }
    func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}

/// The test's own request handler: a closure that answers each request.
struct ClosureHandler: RequestHandling {
    let answer: @Sendable (Request) -> Reply
    let pool: WorkerPool = {
        let pool = WorkerPool(workers: 2)
        pool.start()
        return pool
    }()
    func handle(_ request: Request) -> Reply { answer(request) }
}

/// A real `Server` running its loop on a thread of this process, on a real listening socket,
/// with clients connected over socketpairs and the clock in the test's hand.
final class InProcessServer {
    let server: Server
    let clock = ManualClock()
    private let folder: String
    private let finished = DispatchSemaphore(value: 0)

    static let capabilities = Capabilities(version: ProtocolLimits.version, serverVersion: "in-process",
                                           maxRequestFrame: ProtocolLimits.maxRequestFrame,
                                           maxReplyFrame: ProtocolLimits.maxReplyFrame,
                                           inputFormats: [.jpeg], outputFormats: [.png])

    init(limits: ServerLimits = ServerLimits(), answer: @escaping @Sendable (Request) -> Reply) throws {
        folder = NSTemporaryDirectory() + "pkin-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let listenFD = try UnixSocket.listen(path: folder + "/s.sock")
        server = try Server(listenFD: listenFD, handler: ClosureHandler(answer: answer),
                            capabilities: Self.capabilities, limits: limits, clock: clock.clock)
        let (server, finished) = (self.server, self.finished)
        let thread = Thread {
            server.run(drainSeconds: 1)
            finished.signal()
        }
        thread.start()
    }

    /// Stops the loop and waits for it to return.
    func stop() {
        // Past any drain deadline: a client that left output unread does not hold the stop.
        clock.advance(by: 3600)
        server.stop()
        _ = finished.wait(timeout: .now() + 30)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A new client over a socketpair; the server adopts the other end.
    func connect() throws -> TestClient {
        let (serverEnd, clientEnd) = try UnixSocket.pair()
        server.adopt(connectedFD: serverEnd)
        return TestClient(fd: clientEnd)
    }

    /// Moves the clock and has the loop look at its timers.
    func advance(by seconds: Double) {
        clock.advance(by: seconds)
        server.wake()
    }

    /// Waits (polling, with a hang guard) until `condition` holds; false if it never did.
    func eventually(seconds: Int = 30, _ condition: () -> Bool) -> Bool {
        for _ in 0..<(seconds * 1000) {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }
}

/// The client end of a socketpair, blocking, with a receive timeout as a hang guard only.
final class TestClient {
    private(set) var fd: Int32
    private var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)

    init(fd: Int32) {
        self.fd = fd
        var guardTime = timeval(tv_sec: 30, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &guardTime, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Closes once: a second close could hit a descriptor number another test now uses.
    func close() {
        if fd >= 0 { FileDescriptorIO.close(fd) }
        fd = -1
    }

    func send(_ request: Request, id: UInt32) throws {
        try sendBytes(request.frame(id: id).encoded())
    }

    func sendBytes(_ bytes: [UInt8]) throws {
        try FileDescriptorIO.sendAll(fd, bytes)
    }

    func hello() throws -> Reply? {
        try send(.hello(Hello(clientName: "in-process test")), id: 1)
        return try readReply()
    }

    /// The next frame, or nil at end of file (or when the hang guard expires).
    func readFrame() throws -> Frame? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let frame = try decoder.next() { return frame }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            decoder.append(buffer[0..<n])
        }
    }

    /// The next frame that is not an event, as a reply with its id.
    func readReply() throws -> Reply? {
        while let frame = try readFrame() {
            if frame.isEvent { continue }
            return try Reply(frame: frame)
        }
        return nil
    }

    func readReplyWithID() throws -> (UInt32, Reply)? {
        while let frame = try readFrame() {
            if frame.isEvent { continue }
            return (frame.requestID, try Reply(frame: frame))
        }
        return nil
    }
}
