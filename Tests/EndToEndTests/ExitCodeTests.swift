import Foundation
import Testing

/// pickerctl's exit codes 0–5 and its one-line errors, each produced the way a user would.
/// One daemon for the suite; the default session (200x200) is made once, and a test that selects
/// does it in a session of its own.
@Suite(.timeLimit(.minutes(15)), .sharedDaemon({ library in
    try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
}, prepare: { daemon in
    let made = try await daemon.ctl("session", "new", "--width", "200", "--height", "200")
    try #require(made.exitCode == 0, "\(made)")
})) struct ExitCodeTests {
    let daemon: LiveDaemon

    init() throws { daemon = try SharedDaemon.current }

    /// A new 200x200 session named `name`.
    private func session(_ name: String) async throws {
        let made = try await daemon.ctl("session", "new", name, "--width", "200", "--height", "200")
        try #require(made.exitCode == 0, "\(made)")
    }

    private func expectError(_ r: CommandResult, code: Int32, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.exitCode == code, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "stdout must be empty on error", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("pickerctl: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(text), "\(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func okIsZero() async throws {
        let r = try await daemon.ctl("ping")
        #expect(r.exitCode == 0)
        #expect(r.stdoutText.hasPrefix("pickerd "))
    }

    @Test func usageErrorsAreTwoAndNeverTouchTheSocket() async throws {
        // A socket path nobody listens on: usage errors must be reported before connecting (not 5).
        let nowhere = ["--socket", "/tmp/pk-nowhere-\(UUID().uuidString.prefix(6)).sock"]
        let ctl = TestEnvironment.pickerctl.path
        await expectError(try runProcess(ctl, nowhere + ["frobnicate"]), code: 2, mentioning: "unknown command")
        await expectError(try runProcess(ctl, nowhere + ["session", "new", "--width", "5"]), code: 2, mentioning: "16…8192")
        await expectError(try runProcess(ctl, nowhere + ["session", "new", "--width", "9000"]), code: 2, mentioning: "16…8192")
        await expectError(try runProcess(ctl, nowhere + ["session", "new"]), code: 2, mentioning: "--width")
        await expectError(try runProcess(ctl, nowhere + ["get-image", "--format", "gif", "-o", "/dev/null"]), code: 2, mentioning: "png, jpeg, webp")
        await expectError(try runProcess(ctl, nowhere + ["select-album"]), code: 2, mentioning: "--index")
        await expectError(try runProcess(ctl, nowhere + ["status", "--bogus"]), code: 2, mentioning: "unknown option")
    }

    @Test func nothingSelectedIsThree() async throws {
        try await session("three")
        let none = try SharedDaemon.scratchFolder().appendingPathComponent("none.png").path
        await expectError(try daemon.ctl("get-image", "-o", none, session: "three"), code: 3, mentioning: "no photo selected")
        await expectError(try daemon.ctl("photos", session: "three"), code: 3, mentioning: "no album selected")
        // The daemon's text names no command of any client; pickerctl adds its own (issue 25 #5).
        await expectError(try daemon.ctl("photos", session: "three"), code: 3, mentioning: "; choose one with `pickerctl select-album`")
    }

    @Test func missingThingsAreFour() async throws {
        try await session("four")
        await expectError(try daemon.ctl("select-album", "Nope", session: "four"), code: 4, mentioning: "Nope")
        await expectError(try daemon.ctl("select-album", "--index", "99", session: "four"), code: 4, mentioning: "99")
        _ = try await daemon.ctl("select-album", "A", session: "four")
        await expectError(try daemon.ctl("select-photo", "nope.jpg", session: "four"), code: 4, mentioning: "nope.jpg")
        await expectError(try daemon.ctl("status", session: "ghost"), code: 4, mentioning: "ghost")
    }

    @Test func unreachableDaemonIsFive() async throws {
        let r = try await runProcess(TestEnvironment.pickerctl.path, ["--socket", "/tmp/pk-none-\(UUID().uuidString.prefix(6)).sock", "ping"])
        expectError(r, code: 5, mentioning: "cannot reach pickerd")
    }

    @Test func otherErrorsAreOne() async throws {
        await expectError(try daemon.ctl("session", "new", "--width", "100"), code: 1, mentioning: "already exists")
    }

    /// The command names of `pickerctl --help`'s "Commands:" block, which pickerctl prints from its
    /// command table: a command added to the table is covered here without editing this test.
    static func commandsListedInHelp(_ overview: String) -> [String] {
        let lines = overview.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...]
            .prefix { $0.hasPrefix("  ") }
            .compactMap { line in line.dropFirst(2).components(separatedBy: "  ").first }
            .filter { !$0.isEmpty }
    }

    @Test func helpIsAvailableForEveryCommand() async throws {
        let overview = try await daemon.ctl("--help")
        #expect(overview.exitCode == 0)
        let listed = Self.commandsListedInHelp(overview.stdoutText)
        // A floor, so that a change of layout that lists nothing cannot pass (22 commands today).
        #expect(listed.count >= 22, "commands parsed from --help: \(listed)")
        for known in ["ping", "session new", "get-image", "preview", "watch", "completions"] {
            #expect(listed.contains(known), "--help lacks \(known): \(listed)")
        }
        for cmd in listed {
            let r = try await daemon.ctl(args: cmd.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.exitCode == 0 && r.stdoutText.hasPrefix("Usage: pickerctl [global options] \(cmd)"), "\(cmd): \(r)")
        }
    }

    @Test func optionsAcceptEqualsFormAndDoubleDash() async throws {
        await #expect(try daemon.ctl("session", "new", "eq", "--width=120", "--height=80").exitCode == 0)
        await #expect(try daemon.ctl("status", "--json", session: "eq").stdoutText.contains("\"width\":120"))
        await #expect(try daemon.ctl("session", "new", "--width", "50", "--", "-dash").exitCode == 0)
        await #expect(try daemon.ctl("session", "show", "--", "-dash").exitCode == 0)
    }
}
