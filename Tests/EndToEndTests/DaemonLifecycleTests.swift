import Foundation
import PickerSystem
import Testing

/// Start-up, shutdown and restarts of a real pickerd process.
@Suite(.timeLimit(.minutes(15))) struct DaemonLifecycleTests {
    let library: TemporaryLibrary

    init() throws {
        library = try TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "A")
    }

    @Test func socketIsPrivateAndTermRemovesItWithExitZero() throws {
        let daemon = try LiveDaemon(library: library.url)
        var st = stat()
        #expect(lstat(daemon.socketPath, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        #expect(daemon.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(daemon.log.contains("stopped"))
    }

    @Test func interruptAlsoStopsCleanly() throws {
        let daemon = try LiveDaemon(library: library.url)
        #expect(daemon.stop(signal: SIGINT) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func secondDaemonOnALiveSocketRefusesToStart() throws {
        let daemon = try LiveDaemon(library: library.url)
        let r = try runProcess(TestEnvironment.pickerd.path, ["--library", library.url.path, "--socket", daemon.socketPath,
                                                            "--state-dir", daemon.directory.appendingPathComponent("s2").path])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("already listening"))
        #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func staleSocketFileIsReplaced() throws {
        let daemon = try LiveDaemon(library: library.url)
        #expect(daemon.stop(signal: SIGKILL) != 0)
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath), "kill -9 leaves the socket file behind")
        try daemon.start()
        #expect(try daemon.ctl("ping").exitCode == 0)
        #expect(daemon.log.contains("stale"))
    }

    @Test func sessionsSurviveRestartAndKillNine() throws {
        let daemon = try LiveDaemon(library: library.url)
        #expect(try daemon.ctl("session", "new", "keep", "--width", "640", "--height", "480", "--title", "Cover").exitCode == 0)
        #expect(try daemon.ctl("select-album", "A", session: "keep").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "Landscape_3.jpg", session: "keep").exitCode == 0)
        let status = try daemon.ctl("status", "--json", session: "keep")
        #expect(status.exitCode == 0, "\(status)")
        let before = status.stdoutText
        // The state being compared must be the one just made, or two empty outputs would match.
        for part in ["\"title\":\"Cover\"", "\"album\":\"A\"", "\"photo\":\"Landscape_3.jpg\"", "\"width\":640", "\"height\":480"] {
            #expect(before.contains(part), "status lacks \(part): \(before)")
        }

        daemon.stop(signal: SIGKILL)
        try daemon.start()
        let afterKill = try daemon.ctl("status", "--json", session: "keep")
        #expect(afterKill.exitCode == 0 && afterKill.stdoutText == before, "after kill -9: \(afterKill)")

        daemon.stop(signal: SIGTERM)
        try daemon.start()
        let afterTerm = try daemon.ctl("status", "--json", session: "keep")
        #expect(afterTerm.exitCode == 0 && afterTerm.stdoutText == before, "after SIGTERM: \(afterTerm)")
    }

    @Test func corruptStateFileIsMovedAsideAndTheDaemonStarts() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("pkstate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        try Data("{\"version\":1,\"sessions\":[{\"na".utf8).write(to: state.appendingPathComponent("sessions.json"))
        let daemon = try LiveDaemon(library: library.url, stateDirectory: state)
        #expect(try daemon.ctl("ping").exitCode == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(names.contains { $0.hasPrefix("sessions.json.corrupt-") })
        #expect(daemon.log.contains("moved aside"))
    }

    @Test func missingLibraryIsAClearStartupError() throws {
        let r = try runProcess(TestEnvironment.pickerd.path, ["--library", "/nonexistent/pics", "--socket", "/tmp/pk-x-\(UUID().uuidString.prefix(6)).sock"])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("/nonexistent/pics"))
    }
}
