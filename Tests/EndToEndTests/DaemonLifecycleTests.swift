import Foundation
import PickerSystem
import Testing

/// Start-up, shutdown and restarts of a real pickerd process.
@Suite(.timeLimit(.minutes(15))) struct DaemonLifecycleTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "A")
    }

    @Test func socketIsPrivateAndTermRemovesItWithExitZero() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        var st = stat()
        #expect(lstat(daemon.socketPath, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        await #expect(daemon.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(daemon.log.contains("stopped"))
    }

    @Test func interruptAlsoStopsCleanly() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(daemon.stop(signal: SIGINT) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func secondDaemonOnALiveSocketRefusesToStart() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let r = try await runProcess(TestEnvironment.pickerd.path, ["--library", library.url.path, "--socket", daemon.socketPath,
                                                            "--state-dir", daemon.directory.appendingPathComponent("s2").path])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("already listening"))
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func staleSocketFileIsReplaced() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(daemon.stop(signal: SIGKILL) != 0)
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath), "kill -9 leaves the socket file behind")
        try await daemon.start()
        await #expect(try daemon.ctl("ping").exitCode == 0)
        #expect(daemon.log.contains("stale"))
    }

    @Test func sessionsSurviveRestartAndKillNine() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "keep", "--width", "640", "--height", "480", "--title", "Cover").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "keep").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "Landscape_3.jpg", session: "keep").exitCode == 0)
        let status = try await daemon.ctl("status", "--json", session: "keep")
        #expect(status.exitCode == 0, "\(status)")
        let before = status.stdoutText
        // The state being compared must be the one just made, or two empty outputs would match.
        for part in ["\"title\":\"Cover\"", "\"album\":\"A\"", "\"photo\":\"Landscape_3.jpg\"", "\"width\":640", "\"height\":480"] {
            #expect(before.contains(part), "status lacks \(part): \(before)")
        }

        await daemon.stop(signal: SIGKILL)
        try await daemon.start()
        let afterKill = try await daemon.ctl("status", "--json", session: "keep")
        #expect(afterKill.exitCode == 0 && afterKill.stdoutText == before, "after kill -9: \(afterKill)")

        await daemon.stop(signal: SIGTERM)
        try await daemon.start()
        let afterTerm = try await daemon.ctl("status", "--json", session: "keep")
        #expect(afterTerm.exitCode == 0 && afterTerm.stdoutText == before, "after SIGTERM: \(afterTerm)")
    }

    @Test func corruptStateFileIsMovedAsideAndTheDaemonStarts() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("pkstate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        try Data("{\"version\":1,\"sessions\":[{\"na".utf8).write(to: state.appendingPathComponent("sessions.json"))
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        await #expect(try daemon.ctl("ping").exitCode == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(names.contains { $0.hasPrefix("sessions.json.corrupt-") })
        #expect(daemon.log.contains("moved aside"))
    }

    @Test func missingLibraryIsAClearStartupError() async throws {
        let r = try await runProcess(TestEnvironment.pickerd.path, ["--library", "/nonexistent/pics", "--socket", "/tmp/pk-x-\(UUID().uuidString.prefix(6)).sock"])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("/nonexistent/pics"))
    }
}
