import Foundation
import Testing

/// systemd socket activation and shell completions.
@Suite struct IntegrationTests {
    let library: TemporaryLibrary

    init() throws {
        library = try TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "Trip")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"),
                   "needs systemd-socket-activate"))
    func socketActivationStartsTheDaemonOnTheFirstConnection() throws {
        let dir = URL(fileURLWithPath: "/tmp/pk-sa-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s.sock").path
        let log = dir.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        p.arguments = ["-l", socket, TestEnvironment.pickerd.path, "--library", library.url.path,
                       "--state-dir", dir.appendingPathComponent("state").path, "--no-shared-thumbnails"]
        let handle = try FileHandle(forWritingTo: log)
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGTERM); p.waitUntilExit() }
        }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        let before = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!before.contains("pickerd[info]"), "pickerd must not run before a client connects: \(before)")
        let r = try runProcess(TestEnvironment.pickerctl.path, ["--socket", socket, "ping"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutText.hasPrefix("pickerd "))
        let after = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(after.contains("socket activation"), "\(after)")
        // Later clients reach the same daemon.
        _ = try runProcess(TestEnvironment.pickerctl.path, ["--socket", socket, "session", "new", "sa", "--width", "100"])
        let s = try runProcess(TestEnvironment.pickerctl.path, ["--socket", socket, "--session", "sa", "status"])
        #expect(s.exitCode == 0)
    }

    @Test func completionsCoverEveryCommandAndCompleteNamesLive() throws {
        let daemon = try LiveDaemon(library: library.url)
        let help = try daemon.ctl("--help").stdoutText
        let bash = try daemon.ctl("completions", "bash")
        #expect(bash.exitCode == 0)
        let script = daemon.directory.appendingPathComponent("pickerctl.bash")
        try bash.stdout.write(to: script)
        #expect(try runProcess("/bin/bash", ["-n", script.path]).exitCode == 0, "bash script must parse")
        for line in help.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
            guard let first = line.split(separator: " ").first, !first.hasPrefix("-") else { continue }
            #expect(bash.stdoutText.contains(String(first)), "bash completion lacks \(first)")
        }
        for shell in ["zsh", "fish"] {
            let r = try daemon.ctl("completions", shell)
            #expect(r.exitCode == 0 && r.stdoutText.contains("select-album"))
        }
        #expect(try daemon.ctl("completions", "tcsh").exitCode == 2)

        _ = try daemon.ctl("session", "new", "--width", "100")
        _ = try daemon.ctl("select-album", "Trip")
        // Run the completion function the way bash would, against the live daemon.
        let bin = TestEnvironment.binDirectory.path
        let probe = """
            PATH="\(bin):$PATH"; source "\(script.path)"
            COMP_WORDS=(pickerctl --socket "\(daemon.socketPath)" select-photo L); COMP_CWORD=4; _pickerctl; echo "${COMPREPLY[*]}"
            COMP_WORDS=(pickerctl --socket "\(daemon.socketPath)" select-album T); COMP_CWORD=4; _pickerctl; echo "${COMPREPLY[*]}"
            COMP_WORDS=(pickerctl sess); COMP_CWORD=1; _pickerctl; echo "${COMPREPLY[*]}"
            """
        let r = try runProcess("/bin/bash", ["-c", probe])
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(r)")
        #expect(lines.first == "Landscape_1.jpg Landscape_3.jpg")
        #expect(lines.dropFirst().first == "Trip")
        #expect(lines.last == "session")
    }
}
