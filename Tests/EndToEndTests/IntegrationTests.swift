import Foundation
import Testing

/// systemd socket activation. (Shell completions: CompletionTests.)
@Suite(.timeLimit(.minutes(15))) struct IntegrationTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "Trip")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"),
                   "needs systemd-socket-activate"))
    func socketActivationStartsTheDaemonOnTheFirstConnection() async throws {
        let dir = URL(fileURLWithPath: "/tmp/pk-sa-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s.sock").path
        let log = dir.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let activator = try spawnProcess("/usr/bin/systemd-socket-activate",
                                         ["-l", socket, TestEnvironment.pickerd.path, "--library", library.url.path,
                                          "--state-dir", dir.appendingPathComponent("state").path, "--no-shared-thumbnails"],
                                         environment: nil, stdin: "/dev/null", stdout: log.path, stderr: log.path, append: true)
        // systemd-socket-activate execs pickerd in its own process: one pid to stop.
        var activatorExit: Int32? = nil
        defer {
            if isRunning(activator, exitCode: &activatorExit) {
                kill(activator, SIGTERM)
                _ = waitForExit(activator)
            }
        }
        try await waitUntil("the activator to create the socket \(socket)", within: 60) { FileManager.default.fileExists(atPath: socket) }
        let before = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!before.contains("pickerd[info]"), "pickerd must not run before a client connects: \(before)")
        let r = try await runProcess(TestEnvironment.pickerctl.path, ["--socket", socket, "ping"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutText.hasPrefix("pickerd "))
        let after = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(after.contains("socket activation"), "\(after)")
        // Later clients reach the same daemon.
        _ = try await runProcess(TestEnvironment.pickerctl.path, ["--socket", socket, "session", "new", "sa", "--width", "100"])
        let s = try await runProcess(TestEnvironment.pickerctl.path, ["--socket", socket, "--session", "sa", "status"])
        #expect(s.exitCode == 0)
    }
}
