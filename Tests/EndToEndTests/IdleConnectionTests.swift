import Foundation
import PickerProtocol
import PickerSystem
import Testing

/// `pickerd --idle-timeout`: a connection with no subscription and nothing in flight is closed after
/// the timeout, so one client (same uid) cannot hold all 256 places; subscribers stay.
@Suite(.timeLimit(.minutes(15))) struct IdleConnectionTests {
    let library: TemporaryLibrary

    init() throws {
        library = try TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
    }

    /// Before: every place stayed taken and every other client got `too_busy` for as long as the hog liked.
    @Test func aClientHoldingEveryConnectionLosesThemOnceIdle() throws {
        let daemon = try LiveDaemon(library: library.url, extraArguments: ["--idle-timeout", "2"])
        defer { _ = daemon.stop() }
        var hog: [RawConnection] = []
        for i in 0..<256 {
            guard let c = try? RawConnection(socketPath: daemon.socketPath, clientName: "hog-\(i)", receiveTimeoutSeconds: 30)
            else { break }
            hog.append(c)
        }
        #expect(hog.count >= 250, "the hog got \(hog.count) places")
        let refused = try daemon.ctl("ping")
        #expect(refused.exitCode != 0 && refused.stderr.contains("too many connections"), "while held: \(refused)")
        // Every held connection is closed by the daemon (a read sees the end) well within the receive timeout.
        let closed = hog.filter { (try? $0.readUntilEnd().end) == .closed }.count
        #expect(closed == hog.count, "\(closed) of \(hog.count) closed")
        #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func aSubscriberOutlivesTheTimeoutAndStillGetsEvents() throws {
        let daemon = try LiveDaemon(library: library.url, extraArguments: ["--idle-timeout", "1"])
        defer { _ = daemon.stop() }
        #expect(try daemon.ctl("session", "new", "s", "--width", "64").exitCode == 0)
        let follower = try RawConnection(socketPath: daemon.socketPath, clientName: "follower", receiveTimeoutSeconds: 20)
        try follower.send(.subscribe(Subscription(session: "s", library: false)), id: 2)
        guard let answer = try follower.nextFrame() else { Issue.record("no answer to subscribe"); return }
        #expect(!answer.isEvent)
        let idle = try RawConnection(socketPath: daemon.socketPath, clientName: "idle", receiveTimeoutSeconds: 20)
        #expect(try idle.readUntilEnd().end == .closed, "the idle one is closed")
        // Several timeouts later the subscriber is still served.
        sleep(3)
        #expect(try daemon.ctl("select-album", "A", session: "s").exitCode == 0)
        var gotEvent = false
        while !gotEvent, let frame = try follower.nextFrame() { gotEvent = frame.isEvent }
        #expect(gotEvent)
    }

    @Test func zeroKeepsIdleConnectionsOpen() throws {
        let daemon = try LiveDaemon(library: library.url, extraArguments: ["--idle-timeout", "0"])
        defer { _ = daemon.stop() }
        let idle = try RawConnection(socketPath: daemon.socketPath, clientName: "idle", receiveTimeoutSeconds: 4)
        #expect(try idle.readUntilEnd().end == .timedOut, "still open after 4 s")
    }
}
