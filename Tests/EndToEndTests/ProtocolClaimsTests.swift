import Foundation
import PickerProtocol
import Testing

/// docs/PROTOCOL.md claims over a real socket: half-close, a repeated `hello`, same-session replies
/// in send order, and `subscribe`/`cancel` never refused `too_busy`.
/// One daemon for the suite, its tests one at a time: each loads the daemon on purpose.
@Suite(.timeLimit(.minutes(15)), .serialized, .sharedDaemon { library in
    for n in [1, 3, 6, 8] {
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_\(n).jpg"), album: "A")
    }
}) struct ProtocolClaimsTests {
    let daemon: LiveDaemon

    init() throws { daemon = try SharedDaemon.current }

    /// Reads until every id in `ids` has a reply (events are skipped); the replies by id, in arrival order.
    private func replies(for ids: Set<UInt32>, on connection: RawConnection) throws -> [(UInt32, Reply)] {
        var got: [(UInt32, Reply)] = []
        while Set(got.map(\.0)) != ids {
            guard let frame = try connection.nextFrame() else { break }
            if frame.isEvent { continue }
            got.append((frame.requestID, try Reply(frame: frame)))
        }
        return got
    }

    @Test func halfClosedClientStillGetsEveryReplyThenTheServerCloses() async throws {
        let c = try RawConnection(path: daemon.socketPath)
        try c.handshake()
        let requests: [(UInt32, Request)] = [
            (2, .sessionNew(NewSession(name: "h", width: 300, height: nil))),
            (3, .selectAlbum(session: "h", .name("A"))),
            (4, .status(session: "nobody")),  // fails: no such session (an error is a reply too)
            (5, .selectPhoto(session: "h", .index(2))),
            (6, .getImage(ImageRequest(session: "h"))),
            (7, .ping), (8, .albums), (9, .status(session: "h")),
        ]
        try c.sendAll(requests)
        c.closeWritingHalf()
        let (frames, end) = try c.readUntilEnd()
        #expect(end == .closed, "the server closes after the last reply")
        #expect(Set(frames.map(\.requestID)) == Set(requests.map(\.0)) && frames.count == requests.count,
                "\(frames.map(\.requestID))")
        let byID = Dictionary(frames.map { ($0.requestID, $0) }, uniquingKeysWith: { a, _ in a })
        if let f = byID[6], case .image(let image) = try Reply(frame: f) {
            #expect(image.width == 300)
        } else {
            Issue.record("request 6 should get the image")
        }
        if let f = byID[4], case .error(let e) = try Reply(frame: f) {
            #expect(e.code == .noSuchSession, "\(e)")
        } else {
            Issue.record("request 4 should get an error")
        }
    }

    @Test func secondHelloIsAnsweredLikeTheFirstAndABadVersionThenCloses() async throws {
        let c = try RawConnection(path: daemon.socketPath)
        try c.handshake()
        try c.send(.hello(Hello(clientName: "again")), id: 7)
        let again = try #require(try c.nextFrame())
        #expect(again.requestID == 7)
        guard case .hello(let caps) = try Reply(frame: again) else {
            Issue.record("a second hello must get helloReply: \(again)")
            return
        }
        #expect(caps.version == 1)
        try c.send(.ping, id: 8)
        let pong = try #require(try c.nextFrame())
        #expect(pong.requestID == 8)
        #expect({ if case .pong = try? Reply(frame: pong) { return true }; return false }(), "the connection stays")
        // A later hello with another version: unsupported_version, echoing the id, then the close.
        try c.send(.hello(Hello(version: 2, clientName: "future")), id: 9)
        let (frames, end) = try c.readUntilEnd()
        #expect(end == .closed)
        #expect(frames.count == 1 && frames.first?.requestID == 9)
        if let f = frames.first, case .error(let e) = try Reply(frame: f) {
            #expect(e.code == .unsupportedVersion, "\(e)")
        } else {
            Issue.record("expected unsupported_version: \(frames)")
        }
    }

    @Test func sameSessionRepliesArriveInSendOrderUnderPipelining() async throws {
        let c = try RawConnection(path: daemon.socketPath)
        try c.handshake()
        var requests: [(UInt32, Request)] = [
            (10, .sessionNew(NewSession(name: "o1", width: 200, height: nil))),
            (11, .sessionNew(NewSession(name: "o2", width: 200, height: nil))),
            (12, .selectAlbum(session: "o1", .name("A"))),
            (13, .selectAlbum(session: "o2", .name("A"))),
        ]
        var id: UInt32 = 14
        for i in 0..<24 {
            let session = i % 2 == 0 ? "o1" : "o2"
            let request: Request
            switch i % 6 {
            case 0, 1: request = .selectPhoto(session: session, .index(i % 4 + 1))
            case 2, 3: request = .thumbnails(ThumbnailRequest(session: session, cellSize: 64 + i))
            default: request = .toggle(session: session, .index(i % 4 + 1))
            }
            requests.append((id, request))
            id += 1
            if i % 5 == 0 { requests.append((id, .ping)); id += 1 }
        }
        try c.sendAll(requests)
        let got = try replies(for: Set(requests.map(\.0)), on: c)
        #expect(got.count == requests.count)
        let sessionOf = Dictionary(uniqueKeysWithValues: requests.map { ($0.0, $0.1.sessionName) })
        for session in ["o1", "o2"] {
            let arrived = got.map(\.0).filter { sessionOf[$0] == session }
            #expect(arrived == arrived.sorted() && arrived.count == 14, "\(session): \(arrived)")
        }
        // Only an image request superseded by a newer one on its session may fail (PROTOCOL: `cancelled`).
        for (rid, reply) in got {
            guard case .error(let e) = reply else { continue }
            #expect(e.code == .cancelled && e.message.hasPrefix("superseded"), "request \(rid) failed: \(e)")
        }
    }

    @Test func subscribeAndCancelAreAnsweredWhileTheInFlightLimitRefusesOthers() async throws {
        await #expect(try daemon.ctl("session", "new", "q", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "q").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "q").exitCode == 0)
        let c = try RawConnection(path: daemon.socketPath)
        try c.handshake()
        // A slow preview, then 70 requests of the same session queued behind it (one write): more
        // than the 64 unanswered requests allowed, then subscribe and cancel.
        var requests: [(UInt32, Request)] = [(100, .preview(PreviewRequest(session: "q", width: 4000, height: 4000)))]
        for i in UInt32(101)...UInt32(170) { requests.append((i, .status(session: "q"))) }
        requests.append((200, .subscribe(Subscription(session: "q", library: true))))
        requests.append((201, .cancel(requestID: 999)))
        try c.sendAll(requests)
        let got = try replies(for: Set(requests.map(\.0)), on: c)
        let byID = Dictionary(got, uniquingKeysWith: { a, _ in a })
        let refused = got.filter { if case .error(let e) = $0.1 { return e.code == .tooBusy }; return false }.map(\.0)
        #expect(!refused.isEmpty, "the in-flight limit must have been hit for this test to mean anything")
        #expect(refused.allSatisfy { $0 >= 164 }, "only requests beyond the 64 unanswered are refused: \(refused)")
        guard case .subscribed? = byID[200] else {
            Issue.record("subscribe must be answered, not refused: \(String(describing: byID[200]))")
            return
        }
        guard case .cancelReply(let rid, let found)? = byID[201] else {
            Issue.record("cancel must be answered, not refused: \(String(describing: byID[201]))")
            return
        }
        #expect(rid == 999 && !found)
    }
}
