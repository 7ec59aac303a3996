import Foundation
import Testing

/// Issue 24 item 9: `pickerctl pick` never waits to read the next key. Its picture requests go out
/// without waiting and a newer one cancels the older, so a burst of `j` decodes the photo the user
/// stops on (and at most one more) and draws only that; End asks pickerd for the album's last page
/// instead of every page before it. A live daemon with its debug log (each request it handles is a
/// line), pick on a pseudo-terminal playing a sixel terminal, and pick in tmux.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickNeverWaitingTests {
    /// Requests of `type` on `session` that pickerd's workers began (superseded ones never begin).
    private static func handled(_ type: String, session: String, in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("\(type) \(session) ") }.count
    }

    private func sessionJSON(_ daemon: LiveDaemon, _ name: String) async throws -> [String: Any] {
        let r = try await daemon.ctl("session", "show", name, "--json")
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    @Test func tenQuickJDrawOnePictureAfterTheLastKeyAndDecodeAtMostTwoPhotos() async throws {
        let library = try await TemporaryLibrary()
        // Fourteen distinct photos (each its own colour): no picture comes from the render cache.
        let specs = (1...14).map { String(format: "Trip/p%02d.jpg=", $0) }
        let made = try await runProcess(TestEnvironment.python,
                                        [TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_dated_jpegs.py").path,
                                         library.url.path] + specs)
        try #require(made.exitCode == 0, "\(made)")
        // The first j's photo takes long to decode (22 MP): the keys after it come while it is on its way.
        let camera = TestEnvironment.corpus.root.appendingPathComponent("camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg")
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("Trip/p02.jpg"))
        _ = try library.add(camera, album: "Trip", as: "p02.jpg")
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch"],
                                          extraEnvironment: ["PICKERD_LOG_LEVEL": "debug"])
        defer { daemon.stopBlocking() }
        #expect(try await daemon.ctl("session", "new", "pty", "--width", "300").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Trip", session: "pty").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "p01.jpg", session: "pty").exitCode == 0)
        let recording = daemon.directory.appendingPathComponent("recording")
        let stdout = daemon.directory.appendingPathComponent("stdout")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/pty_terminal.py").path
        let r = try await runProcess(TestEnvironment.python, [script, "sixel", "120", "40", "960", "640", recording.path, stdout.path,
                                                              "--burst=10", "--gap-ms=10", "--",
                                                              TestEnvironment.pickerctl.path, "--socket", daemon.socketPath,
                                                              "--session", "pty", "pick"])
        let summary = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
        #expect(summary["exit"] as? Int == 3 && summary["steps_left"] as? Int == 0, "\(r)")
        #expect(summary["pictures_after_last_key"] as? Int == 1, "one picture after the last key: \(summary)")
        #expect(try await sessionJSON(daemon, "pty")["photo"] as? String == "p11.jpg", "ten j from p01")
        // Drawn: the opening photo and p11, both 64x48; never the 22 MP one passed on the way (3:2).
        let rasters = TerminalRecording.sixelRasters(Array((try? Data(contentsOf: recording)) ?? Data()))
        #expect(rasters.count == 2, "\(rasters)")
        #expect(rasters.allSatisfy { $0.width * 3 == $0.height * 4 || abs($0.width * 3 - $0.height * 4) < 24 }, "\(rasters)")
        // The opening picture, then at most two for the burst: the first j's (asked at once) and p11's.
        let log = daemon.log
        let images = Self.handled("getImage", session: "pty", in: log)
        #expect(images >= 2 && images <= 3, "getImage requests begun: \(images)\n\(log.suffix(3000))")
        #expect(Self.handled("selectPhoto", session: "pty", in: log) == 1 + 10, "select-photo p01, then every j moved the session")
    }

    @Test func endOnA5000PhotoAlbumAsksForTheLastPageOnlyAndTheRowsBetweenLoadWhenReached() async throws {
        let big = try await TemporaryLibrary()
        let made = try await PickBigAlbum.make(5000, in: big.url.appendingPathComponent("Big"), distinct: true)
        try #require(made.exitCode == 0, "\(made)")
        let daemon = try await LiveDaemon(library: big.url, extraEnvironment: ["PICKERD_LOG_LEVEL": "debug"])
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Big", session: "pk").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try await pick.waitFor("the album's total") { $0.contains("Photos (5000)") && $0.contains("p00001.jpg") }
        let pagesBefore = Self.handled("photosPage", session: "pk", in: daemon.log)
        try await pick.press("End")
        try await pick.waitFor("the last photo current", seconds: 60) { screen in
            guard screen.contains("p05000.jpg") else { return false }
            return try await sessionJSON(daemon, "pk")["photo"] as? String == "p05000.jpg"
        }
        let pagesForEnd = Self.handled("photosPage", session: "pk", in: daemon.log) - pagesBefore
        #expect(pagesForEnd == 1, "End asked for the last page only, not the \(pagesForEnd) pages before it")
        // Up into the rows End jumped over: they are loaded as the cursor nears them, names and all.
        for _ in 0..<25 { try await pick.press("PageUp") }
        let screen = try await pick.waitFor("a named photo below 4,000 current", seconds: 60) { screen in
            guard let current = try await sessionJSON(daemon, "pk")["photo"] as? String,
                  let number = Int(current.dropFirst().prefix(5)), number < 4000 else { return false }
            return screen.contains(current)
        }
        let rows = screen.split(separator: "\n").dropFirst(2).prefix(20)
        #expect(rows.allSatisfy { $0.contains(".jpg") }, "no row left without its name:\n\(screen)")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
        _ = try await runProcess("/bin/rm", ["-rf", big.url.appendingPathComponent("Big").path])  // FileManager takes seconds
    }
}
