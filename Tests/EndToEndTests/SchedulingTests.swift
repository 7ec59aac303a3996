import Foundation
import PickerClient
import PickerProtocol
import Testing

/// The worker pool seen from a client: a cancelled decode stops inside the decoder and frees its
/// worker, and photos next to the current one are rendered ahead while the session dwells on it.
@Suite(.timeLimit(.minutes(15))) struct SchedulingTests {
    static let camera = "camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"

    /// A library of one album, "Cam", holding the 22 MP camera photo `count` times (distinct files).
    static func cameraLibrary(count: Int) async throws -> TemporaryLibrary {
        let library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent(camera)
        for i in 1...count { try library.add(source, album: "Cam", as: "photo\(i).jpg") }
        return library
    }

    @Test func cancellingARunningFullSizeDecodeStopsItInTheDecoderAndTheWorkerServesTheNextRequest() async throws {
        let library = try await Self.cameraLibrary(count: 1)
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--workers", "1", "--no-prefetch"],
                                    extraEnvironment: ["PICKERD_LOG_LEVEL": "debug"])
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        // A pane as large as the photo: no DCT shrink, the decoder reads all 22 MP row batch by row batch.
        for step: Request in [.sessionNew(NewSession(name: "big", width: 6000, height: 4000)),
                              .selectAlbum(session: "big", .name("Cam")), .selectPhoto(session: "big", .index(1))] {
            if case .error(let e) = try setup.call(step) { throw e }
        }
        let conn = try RawConnection(socketPath: daemon.socketPath, clientName: "canceller")
        let image = try conn.sendInOneWrite([.getImage(ImageRequest(session: "big", format: .jpeg, noCache: true))])[0]
        // Let the only worker get into the decode (a full-size decode of 22 MP takes far longer).
        await pause(80_000)
        let sentCancel = Date()
        let cancel = try conn.sendInOneWrite([.cancel(requestID: image)])[0]
        let replies = try conn.replies(to: [image, cancel])
        let cancelToReply = Date().timeIntervalSince(sentCancel) * 1000
        print("cancel of a running 22 MP decode → cancelled reply: \(String(format: "%.1f", cancelToReply)) ms")
        #expect(replies[cancel] == .cancelReply(requestID: image, found: true))
        if case .error(let e)? = replies[image] {
            #expect(e.code == .cancelled, "\(e)")
        } else {
            Issue.record("the cancelled request must get a cancelled error, got \(String(describing: replies[image]))")
        }
        // The decoder itself stopped (the engine answered `cancelled`), not only the reply was dropped.
        #expect(daemon.log.contains("getImage big error cancelled"), "daemon log:\n\(daemon.log.suffix(2000))")
        // The worker is free: the next decode on the same single worker is answered.
        await #expect(try daemon.ctl("ping").exitCode == 0)
        await #expect(try daemon.ctl("session", "resize", "--width", "320", "--height", "240", session: "big").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("after.png").path
        let after = try await daemon.ctl("get-image", "-o", out, session: "big")
        #expect(after.exitCode == 0, "\(after)")
    }

    @Test func aCachedImageIsAnsweredWhileTheOnlyWorkerDecodesAndASessionRequestToo() async throws {
        let library = try await Self.cameraLibrary(count: 2)
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--workers", "1", "--no-prefetch"])
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        for step: Request in [.sessionNew(NewSession(name: "big", width: 6000, height: 4000)),
                              .selectAlbum(session: "big", .name("Cam")), .selectPhoto(session: "big", .index(1)),
                              .sessionNew(NewSession(name: "small", width: 320, height: 240)),
                              .selectAlbum(session: "small", .name("Cam")), .selectPhoto(session: "small", .index(2)),
                              .getImage(ImageRequest(session: "small"))] {
            if case .error(let e) = try setup.call(step) { throw e }
        }
        // The only worker gets a full-size decode plus a 22 MP PNG encode (seconds); then a cached
        // image and a session request of other sessions arrive: neither waits for it.
        let conn = try RawConnection(socketPath: daemon.socketPath, clientName: "mixed")
        let ids = try conn.sendInOneWrite([.getImage(ImageRequest(session: "big", noCache: true)),
                                           .getImage(ImageRequest(session: "small")),
                                           .status(session: "small")])
        let replies = try conn.replies(to: ids)
        #expect(conn.arrivalOrder.last == ids[0], "reply order \(conn.arrivalOrder), ids \(ids)")
        if case .image(let img)? = replies[ids[1]] { #expect(img.width == 320 || img.height == 240) } else {
            Issue.record("the cached image is answered: \(String(describing: replies[ids[1]]))")
        }
        if case .image? = replies[ids[0]] {} else { Issue.record("the big image is answered: \(String(describing: replies[ids[0]]))") }
    }

    /// The names of the daemon's threads (/proc/PID/task/*/comm).
    static func threadNames(_ pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func requestWorkRunsOnExactlyTheWorkersAskedForPlusOneInteractiveLane() async throws {
        let library = try await Self.cameraLibrary(count: 3)
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--workers", "3"])
        // Images, a grid and session requests from several clients at once.
        let conns = try (0..<4).map { try RawConnection(socketPath: daemon.socketPath, clientName: "load\($0)") }
        for (i, conn) in conns.enumerated() {
            let s = "t\(i)"
            let ids = try conn.sendInOneWrite([.sessionNew(NewSession(name: s, width: 300 + 10 * i, height: 200)),
                                               .selectAlbum(session: s, .name("Cam")),
                                               .selectPhoto(session: s, .index(1 + i % 3)),
                                               .getImage(ImageRequest(session: s, noCache: true)),
                                               .thumbnails(ThumbnailRequest(session: s)),
                                               .status(session: s)])
            _ = try conn.replies(to: ids)
        }
        let names = Self.threadNames(daemon.pid)
        #expect(names.filter { $0.hasPrefix("pk-worker-") }.count == 3, "\(names)")
        #expect(names.filter { $0 == "pk-interactive" }.count == 1, "\(names)")
        print("pickerd --workers 3 threads after load: \(names.count): \(names.sorted())")
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func workersMustBeAtLeastOne() async throws {
        let r = try await runProcess(TestEnvironment.pickerd.path, ["--workers", "0"])
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains("--workers"), "\(r)")
    }

    /// Runs the browsing steps: look at photo 1 (ask for it), then dwell, `next`, ask for photo 2.
    private func browse(_ daemon: LiveDaemon, waitForPrefetch: Bool) async throws {
        for args in [["session", "new", "b", "--width", "800", "--height", "600"], ["select-album", "Cam"],
                     ["select-photo", "--index", "1"], ["get-image", "-o", daemon.directory.appendingPathComponent("1.png").path]] {
            let r = try await daemon.ctl(args: args, session: args[0] == "session" ? nil : "b")
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        if waitForPrefetch {
            // The dwell: wait (bounded) until the daemon says it has rendered photo 2 ahead.
            try await waitUntil("pickerd to log that it prefetched Cam/photo2.jpg for session b", within: 60, seen: { daemon.log }) {
                daemon.log.contains("prefetched Cam/photo2.jpg for session b")
            }
        } else {
            await pause(300_000)
        }
        await #expect(try daemon.ctl("next", session: "b").exitCode == 0)
        let r = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("2.png").path, session: "b")
        #expect(r.exitCode == 0, "\(r)")
    }

    @Test func afterADwellTheNextPhotoIsAlreadyRenderedAndGetImageIsACacheHit() async throws {
        let library = try await Self.cameraLibrary(count: 3)
        let daemon = try await LiveDaemon(library: library.url, extraEnvironment: ["PICKERD_LOG_LEVEL": "debug"])
        try await browse(daemon, waitForPrefetch: true)
        let log = daemon.log
        #expect(log.contains("prefetched Cam/photo2.jpg for session b"), "log:\n\(log.suffix(2000))")
        #expect(log.contains("render cache hit: Cam/photo2.jpg at 800x600"), "log:\n\(log.suffix(2000))")
    }

    @Test func withNoPrefetchNothingIsRenderedAhead() async throws {
        let library = try await Self.cameraLibrary(count: 3)
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch"],
                                    extraEnvironment: ["PICKERD_LOG_LEVEL": "debug"])
        try await browse(daemon, waitForPrefetch: false)
        let log = daemon.log
        #expect(!log.contains("prefetched"), "log:\n\(log.suffix(2000))")
        #expect(!log.contains("render cache hit: Cam/photo2.jpg"), "log:\n\(log.suffix(2000))")
    }
}
