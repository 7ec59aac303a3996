import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Events and cancellation on the wire, and `pickerctl watch`.
@Suite(.timeLimit(.minutes(15))) struct EventsTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "Trip")
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_8.jpg"), album: "Other")
        daemon = try await LiveDaemon(library: library.url)
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

    @Test func sessionEventsArriveInOrderAndOnlyForTheSubscribedSession() async throws {
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "listener")
        let sub = try listener.send(.subscribe(Subscription(session: "s1", library: false)))
        #expect(try listener.receive(id: sub) == .subscribed(Subscription(session: "s1", library: false)))

        for args in [["session", "new", "s1", "--width", "300"], ["session", "new", "s2", "--width", "300"]] {
            await #expect(try daemon.ctl(args: args).exitCode == 0)
        }
        for s in ["s2", "s1"] {
            await #expect(try daemon.ctl("select-album", "Trip", session: s).exitCode == 0)
            await #expect(try daemon.ctl("select-photo", "--index", "2", session: s).exitCode == 0)
        }
        await #expect(try daemon.ctl("select-photo", "--index", "2", session: "s1").exitCode == 0)  // no change: no event
        await #expect(try daemon.ctl("toggle", "--index", "1", session: "s1").exitCode == 0)
        await #expect(try daemon.ctl("session", "resize", "--width", "400", "--height", "300", session: "s1").exitCode == 0)
        await #expect(try daemon.ctl("session", "close", "s1").exitCode == 0)

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

    /// The daemon runs at most this many image requests of one connection at once; later ones
    /// wait, in order, until one of those is answered (ServerLimits.maxImageWorkPerConnection).
    static let imageWorkPerConnection = 4

    /// Makes `count` sessions named `prefix1…` on album Trip, photo 1: one running image job each.
    private func fillerSessions(_ prefix: String, count: Int) throws -> [String] {
        let names = (1...count).map { "\(prefix)\($0)" }
        for name in names { try pointAtFirstPhoto(name, width: 200, height: 200) }
        return names
    }

    private func pointAtFirstPhoto(_ session: String, width: Int, height: Int) throws {
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        let steps: [Request] = [.sessionNew(NewSession(name: session, width: width, height: height)),
                                .selectAlbum(session: session, .name("Trip")), .selectPhoto(session: session, .index(1))]
        for step in steps {
            if case .error(let e) = try setup.call(step) { throw e }
        }
    }

    /// Deterministic on any machine: four image requests on other sessions fill the connection's
    /// image slots, so the fifth waits; the cancel comes in the same write, and the daemon acts on
    /// a whole read before it learns that any work finished, so the fifth is still waiting.
    @Test func cancelledRequestGetsCancelledAndNoImage() async throws {
        let fillers = try fillerSessions("cf", count: Self.imageWorkPerConnection)
        try pointAtFirstPhoto("c", width: 300, height: 200)
        let conn = try RawConnection(socketPath: daemon.socketPath, clientName: "canceller")
        let busy: [Request] = fillers.map { .getImage(ImageRequest(session: $0, noCache: true)) }
        let ids = try conn.sendInOneWrite({ sent in
            switch sent.count {
            case ..<busy.count: return busy[sent.count]
            case busy.count: return .status(session: "c")
            case busy.count + 1: return .getImage(ImageRequest(session: "c", format: .jpeg, noCache: true))
            default: return .cancel(requestID: sent[busy.count + 1])
            }
        }, count: busy.count + 3)
        let (status, waiting, cancel) = (ids[busy.count], ids[busy.count + 1], ids[busy.count + 2])
        let replies = try conn.replies(to: ids)
        #expect(replies[cancel] == .cancelReply(requestID: waiting, found: true))
        if case .error(let e)? = replies[waiting] {
            #expect(e.code == .cancelled && e.message.contains("cancelled by the client"), "\(e)")
        } else {
            Issue.record("the cancelled request must get a cancelled error, got \(String(describing: replies[waiting]))")
        }
        if case .session? = replies[status] {} else { Issue.record("status must be answered: \(String(describing: replies[status]))") }
        for id in ids.prefix(busy.count) {
            if case .image(let img)? = replies[id] { #expect(img.width > 0) } else { Issue.record("no image for \(id): \(String(describing: replies[id]))") }
        }
        // It really waited: it was let go only once a running image job had been answered.
        let firstImage = conn.arrivalOrder.firstIndex { ids.prefix(busy.count).contains($0) }
        let cancelled = conn.arrivalOrder.firstIndex(of: waiting)
        if let firstImage, let cancelled {
            #expect(firstImage < cancelled, "reply order \(conn.arrivalOrder), ids \(ids)")
        } else {
            Issue.record("missing replies: order \(conn.arrivalOrder), ids \(ids)")
        }
        // Cancelling something answered: not found.
        let late = try conn.sendInOneWrite([.cancel(requestID: waiting)])
        #expect(try conn.replies(to: late)[late[0]] == .cancelReply(requestID: waiting, found: false))
    }

    /// Deterministic the same way: with the image slots full, three requests on one session all
    /// wait, so each newer one supersedes the one before it and only the newest is rendered.
    @Test func newerImageRequestSupersedesAWaitingOlderOne() async throws {
        let fillers = try fillerSessions("uf", count: Self.imageWorkPerConnection)
        try pointAtFirstPhoto("u", width: 320, height: 240)
        let conn = try RawConnection(socketPath: daemon.socketPath, clientName: "superseder")
        let requests: [Request] = fillers.map { .getImage(ImageRequest(session: $0, noCache: true)) }
            + Array(repeating: .getImage(ImageRequest(session: "u", noCache: true)), count: 3)
        let ids = try conn.sendInOneWrite(requests)
        let replies = try conn.replies(to: ids)
        let mine = ids.suffix(3)
        for id in mine.dropLast() {
            if case .error(let e)? = replies[id] {
                #expect(e.code == .cancelled && e.message.contains("superseded"), "\(e)")
            } else {
                Issue.record("waiting request \(id) must be superseded, got \(String(describing: replies[id]))")
            }
        }
        if case .image(let img)? = replies[mine.last ?? 0] {
            #expect(img.width == 320 || img.height == 240, "fits the pane: \(img.width)x\(img.height)")
        } else {
            Issue.record("the newest request gets its image")
        }
    }

    @Test func watchPrintsOneLinePerEventUntilInterrupted() async throws {
        await #expect(try daemon.ctl("session", "new", "w", "--width", "300").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("watch.out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let watcher = try spawnProcess(TestEnvironment.pickerctl.path,
                                       ["--socket", daemon.socketPath, "--session", "w", "watch", "--json"],
                                       environment: nil, stdin: "/dev/null", stdout: out.path,
                                       stderr: daemon.directory.appendingPathComponent("watch.err").path)
        var watcherExit: Int32? = nil
        defer { if isRunning(watcher, exitCode: &watcherExit) { kill(watcher, SIGKILL); _ = waitForExit(watcher) } }
        // Wait until it has subscribed (its connection is up): a change then must show.
        var lines: [String] = []
        var attempt = 0
        try await waitUntil("watch --json to print its first event (it has subscribed)", within: 60, every: 20_000) {
            if attempt % 10 == 0 { _ = try await daemon.ctl("select-album", attempt % 20 == 0 ? "Trip" : "Other", session: "w") }
            attempt += 1
            lines = (try String(contentsOf: out, encoding: .utf8)).split(separator: "\n").map(String.init)
            return !lines.isEmpty
        }
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "w").exitCode == 0)
        try await waitUntil("watch --json to print the photo event", within: 60, every: 20_000, seen: { "\(lines)" }) {
            lines = (try String(contentsOf: out, encoding: .utf8)).split(separator: "\n").map(String.init)
            return lines.contains { $0.contains("\"event\":\"photo\"") }
        }
        kill(watcher, SIGINT)
        let code = await exitStatus(of: watcher)
        watcherExit = code
        #expect(code == 0 || code == 130, "watch ends on SIGINT: exit \(code)")
        #expect(lines.contains { $0.contains("\"event\":\"album\"") && $0.contains("\"session\":\"w\"") }, "\(lines)")
        #expect(lines.contains { $0.contains("\"event\":\"photo\"") }, "\(lines)")
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test func libraryEventsFollowPhotosAddedOnDisk() async throws {
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "lib-listener")
        guard case .libraryInfo(let initial) = try listener.call(.libraryInfo) else {
            Issue.record("no library info")
            return
        }
        _ = try listener.call(.subscribe(Subscription(session: nil, library: true)))
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_6.jpg"), album: "New")
        // Listings rescan when the last scan is older than 5 s.
        try await waitUntil("a library event counting the new photo", within: 90, every: 100_000) {
            var found = false
            _ = try await daemon.ctl("albums")
            let ping = try listener.send(.ping)
            while true {
                let f = try listener.nextFrame()
                if f.isEvent, case .library(let info) = try Event(frame: f) { found = found || info.photoCount == initial.photoCount + 1 }
                if f.requestID == ping && !f.isEvent { break }
            }
            return found
        }
    }
}
