import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Events and cancellation on the wire, and `pickerctl watch`.
@Suite struct EventsTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() throws {
        library = try TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "Trip")
        let camera = TestEnvironment.manifest.first { $0.category == "camera-photos" }
        if let camera { try library.add(camera.url, album: "Camera") }
        daemon = try LiveDaemon(library: library.url)
    }

    /// Reads replies and events until `count` replies have arrived.
    private func collect(_ conn: PickerConnection, replies count: Int) throws -> (replies: [UInt32: Reply], events: [Event]) {
        var replies: [UInt32: Reply] = [:]
        var events: [Event] = []
        while replies.count < count {
            let f = try conn.nextFrame()
            if f.isEvent { events.append(try Event(frame: f)) } else { replies[f.requestID] = try Reply(frame: f) }
        }
        return (replies, events)
    }

    @Test func sessionEventsArriveInOrderAndOnlyForTheSubscribedSession() throws {
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "listener")
        let sub = try listener.send(.subscribe(Subscription(session: "s1", library: false)))
        #expect(try listener.receive(id: sub) == .subscribed(Subscription(session: "s1", library: false)))

        for args in [["session", "new", "s1", "--width", "300"], ["session", "new", "s2", "--width", "300"]] {
            #expect(try daemon.ctl(args: args).exitCode == 0)
        }
        for s in ["s2", "s1"] {
            #expect(try daemon.ctl("select-album", "Trip", session: s).exitCode == 0)
            #expect(try daemon.ctl("select-photo", "--index", "2", session: s).exitCode == 0)
        }
        #expect(try daemon.ctl("select-photo", "--index", "2", session: "s1").exitCode == 0)  // no change: no event
        #expect(try daemon.ctl("toggle", "--index", "1", session: "s1").exitCode == 0)
        #expect(try daemon.ctl("session", "resize", "--width", "400", "--height", "300", session: "s1").exitCode == 0)
        #expect(try daemon.ctl("session", "close", "s1").exitCode == 0)

        // A ping after everything: its reply arrives after every event already sent.
        let ping = try listener.send(.ping)
        let (_, events) = try collect(listener, replies: 1)
        _ = ping
        let seen = events.compactMap { e -> (SessionChange, SessionState)? in
            if case let .session(c, s) = e { return (c, s) } else { return nil }
        }
        #expect(seen.map(\.0) == [.created, .album, .photo, .selection, .paneSize, .closed], "\(seen.map(\.0))")
        #expect(seen.allSatisfy { $0.1.name == "s1" })
        #expect(seen[2].1.photo == "Landscape_3.jpg")
        #expect(seen[3].1.selectionCount == 1)
        #expect(seen[4].1.width == 400 && seen[4].1.height == 300)
    }

    /// A camera photo takes long enough to decode that a second request is still waiting.
    static let hasCameraPhoto = TestEnvironment.manifest.contains { $0.category == "camera-photos" }

    @Test(.enabled(if: hasCameraPhoto, "needs a camera photo in the corpus"))
    func cancelledRequestGetsCancelledAndNoImage() throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "canceller")
        _ = try conn.call(.sessionNew(NewSession(name: "c", width: 1200, height: 800)))
        _ = try conn.call(.selectAlbum(session: "c", .name("Camera")))
        _ = try conn.call(.selectPhoto(session: "c", .index(1)))
        // Two renders on one session run one after the other: the second waits, and is cancelled.
        let first = try conn.send(.getImage(ImageRequest(session: "c", noCache: true)))
        let second = try conn.send(.status(session: "c"))
        let third = try conn.send(.getImage(ImageRequest(session: "c", format: .jpeg, noCache: true)))
        let cancel = try conn.send(.cancel(requestID: third))
        let (replies, _) = try collect(conn, replies: 4)
        #expect(replies[cancel] == .cancelReply(requestID: third, found: true))
        if case .error(let e)? = replies[third] {
            #expect(e.code == .cancelled && e.message.contains("cancelled by the client"))
        } else {
            Issue.record("the cancelled request must get a cancelled error, got \(String(describing: replies[third]))")
        }
        if case .session? = replies[second] {} else { Issue.record("status must be answered") }
        // The first render either ran, or (on a busy machine, not yet started) was superseded by the third.
        switch replies[first] {
        case .image?: break
        case .error(let e)?: #expect(e.code == .cancelled && e.message.contains("superseded"), "\(e)")
        default: Issue.record("no reply for the first render")
        }
        // Cancelling something long gone: not found.
        #expect(try conn.call(.cancel(requestID: first)) == .cancelReply(requestID: first, found: false))
    }

    @Test(.enabled(if: hasCameraPhoto, "needs a camera photo in the corpus"))
    func newerImageRequestSupersedesAWaitingOlderOne() throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "superseder")
        _ = try conn.call(.sessionNew(NewSession(name: "u", width: 1600, height: 1200)))
        _ = try conn.call(.selectAlbum(session: "u", .name("Camera")))
        _ = try conn.call(.selectPhoto(session: "u", .index(1)))
        let ids = try (0..<3).map { _ in try conn.send(.getImage(ImageRequest(session: "u", noCache: true))) }
        let (replies, _) = try collect(conn, replies: 3)
        if case .error(let e)? = replies[ids[1]] {
            #expect(e.code == .cancelled && e.message.contains("superseded"), "\(e)")
        } else {
            Issue.record("the waiting middle request must be superseded")
        }
        if case .image(let img)? = replies[ids[2]] { #expect(img.width > 0) } else { Issue.record("the newest request gets its image") }
    }

    @Test func watchPrintsOneLinePerEventUntilInterrupted() throws {
        #expect(try daemon.ctl("session", "new", "w", "--width", "300").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("watch.out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let p = Process()
        p.executableURL = TestEnvironment.pickerctl
        p.arguments = ["--socket", daemon.socketPath, "--session", "w", "watch", "--json"]
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        // Wait until it has subscribed (its connection is up): a change then must show.
        var lines: [String] = []
        for attempt in 0..<100 {
            if attempt % 10 == 0 { _ = try daemon.ctl("select-album", attempt % 20 == 0 ? "Trip" : "Camera", session: "w") }
            usleep(20_000)
            lines = (try String(contentsOf: out, encoding: .utf8)).split(separator: "\n").map(String.init)
            if !lines.isEmpty { break }
        }
        #expect(try daemon.ctl("select-photo", "--index", "1", session: "w").exitCode == 0)
        for _ in 0..<100 {
            lines = (try String(contentsOf: out, encoding: .utf8)).split(separator: "\n").map(String.init)
            if lines.contains(where: { $0.contains("\"event\":\"photo\"") }) { break }
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(lines.contains { $0.contains("\"event\":\"album\"") && $0.contains("\"session\":\"w\"") }, "\(lines)")
        #expect(lines.contains { $0.contains("\"event\":\"photo\"") }, "\(lines)")
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test func libraryEventsFollowPhotosAddedOnDisk() throws {
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "lib-listener")
        _ = try listener.call(.subscribe(Subscription(session: nil, library: true)))
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_6.jpg"), album: "New")
        // Listings rescan when the last scan is older than 5 s.
        var found = false
        for _ in 0..<80 where !found {
            _ = try daemon.ctl("albums")
            let ping = try listener.send(.ping)
            while true {
                let f = try listener.nextFrame()
                if f.isEvent, case .library(let info) = try Event(frame: f) { found = info.photoCount >= 3 }
                if f.requestID == ping && !f.isEvent { break }
            }
            if !found { usleep(100_000) }
        }
        #expect(found, "a library event after the new photo")
    }
}
