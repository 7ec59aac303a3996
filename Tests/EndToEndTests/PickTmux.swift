import Foundation

/// `pickerctl pick` running in a private tmux server (`new-session -d -x 160 -y 48`), its stdout
/// redirected to a file and its exit code written after it ends, driven by keys as a user types.
final class PickTmux: @unchecked Sendable {
    let tmux: String
    let socket: String
    let directory: URL
    var outputURL: URL { directory.appendingPathComponent("out") }
    var exitCodeURL: URL { directory.appendingPathComponent("rc") }
    var pidURL: URL { directory.appendingPathComponent("pid") }
    var goURL: URL { directory.appendingPathComponent("go") }
    var recordingURL: URL { directory.appendingPathComponent("recording") }
    /// A tmux server and a pick: a heavy child (free when the test already runs a daemon).
    private let slot: ChildSlots.Slot

    /// Everything pick writes to its pane from now on goes to `recordingURL` too (`pipe-pane -O`).
    func recordOutput() async throws {
        try await tmuxCommand(["pipe-pane", "-O", "cat > \(Self.quoted(recordingURL.path))"])
    }

    /// Lets a pick started with `rightPaneColumns` begin.
    func go() async throws {
        try Data().write(to: goURL)
        try await waitFor("the picker's key help") { $0.contains("Space pick") }
    }

    /// Starts `pickerctl --socket … pick ARGS` for `daemon`; waits until the picker has drawn its help row.
    /// - Parameter rightOfPane: pick runs in a second pane this many columns wide, right of a first one,
    ///   and starts only when `go()` is called (after `recordOutput`, say).
    init(daemon: LiveDaemon, arguments: [String], columns: Int = 160, rows: Int = 48,
         environment: [String: String] = [:], waitForDrawing: Bool = true, rightPaneColumns: Int? = nil) async throws {
        guard let tmux = findExecutable("tmux") else { throw TmuxError.missing("tmux") }
        self.tmux = tmux
        slot = await ChildSlots.shared.acquire()
        directory = URL(fileURLWithPath: "/tmp/pkp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("tmux.sock").path
        let command = ([TestEnvironment.pickerctl.path, "--socket", daemon.socketPath, "pick"] + arguments)
            .map(Self.quoted).joined(separator: " ")
        // The pane stays open after pick exits, so the restored screen can be looked at.
        var script = "echo $$ > \(Self.quoted(pidURL.path)); \(command) > \(Self.quoted(outputURL.path)); echo $? > \(Self.quoted(exitCodeURL.path)); exec sleep 600"
        if rightPaneColumns != nil {
            script = "while [ ! -e \(Self.quoted(goURL.path)) ]; do sleep 0.05; done; " + script
        }
        // A UTF-8 locale, as a user's terminal has: pick draws symbols in ASCII without one.
        let env = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "HOME": directory.path, "LANG": "C.UTF-8"]
            .merging(environment) { _, new in new }
        let first = rightPaneColumns == nil ? ["sh", "-c", script] : ["sleep", "600"]
        let r = try await runProcess(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)"] + first,
                               environment: env)
        guard r.exitCode == 0 else { throw TmuxError.failed("new-session: \(r)") }
        if let width = rightPaneColumns {
            let split = try await runProcess(tmux, ["-S", socket, "split-window", "-h", "-l", "\(width)", "sh", "-c", script], environment: env)
            guard split.exitCode == 0 else { throw TmuxError.failed("split-window: \(split)") }
            return
        }
        if waitForDrawing { try await waitFor("the picker's key help") { $0.contains("Space pick") } }
    }

    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Presses named tmux keys ("j", "Enter", "Space", "Escape", "C-c") one by one.
    func press(_ keys: String...) async throws {
        for key in keys { try await tmuxCommand(["send-keys", key]) }
    }

    /// Types text literally.
    func type(_ text: String) async throws { try await tmuxCommand(["send-keys", "-l", "--", text]) }

    /// The screen as text (`-e`: with colour escapes).
    func screen(escapes: Bool = false) async throws -> String {
        let r = try await runProcess(tmux, ["-S", socket, "capture-pane", "-p"] + (escapes ? ["-e"] : []))
        guard r.exitCode == 0 else { throw TmuxError.failed("capture-pane: \(r)") }
        return r.stdoutText
    }

    func lines(escapes: Bool = false) async throws -> [String] {
        try await screen(escapes: escapes).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A tmux format about the pane: `#{alternate_on}`, `#{cursor_flag}`.
    func paneFormat(_ format: String) async throws -> String {
        let r = try await runProcess(tmux, ["-S", socket, "display-message", "-p", format])
        return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(columns: Int, rows: Int) async throws {
        try await tmuxCommand(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the screen until `condition` holds; throws with the screen after `seconds`.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 20, escapes: Bool = false, _ condition: (String) async throws -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let text = try await screen(escapes: escapes)
            if try await condition(text) { return text }
            if Date() > deadline { throw TmuxError.timeout(what, screen: text) }
            await pause(30_000)
        }
    }

    /// Like `waitFor`, and the screen must also stay the same for 250 ms: tmux may be captured while a
    /// picture is half drawn, and a test that keeps a screen to compare with later needs the whole one.
    @discardableResult
    func waitForSettled(_ what: String, seconds: Double = 20, escapes: Bool = false, _ condition: (String) async throws -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var candidate: String? = nil
        while true {
            let text = try await screen(escapes: escapes)
            if try await condition(text) {
                if text == candidate { return text }
                candidate = text
                await pause(250_000)
                continue
            }
            candidate = nil
            if Date() > deadline { throw TmuxError.timeout(what, screen: text) }
            await pause(30_000)
        }
    }

    /// Polls the recorded output until `extract` finds something in it.
    func waitForRecording<T>(seconds: Double = 20, _ extract: (String) -> T?) async -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let data = try? Data(contentsOf: recordingURL), let found = extract(String(decoding: data, as: UTF8.self)) { return found }
            await pause(50_000)
        }
        return nil
    }

    /// Waits for pick to end: its exit code and what it printed on stdout.
    func waitForExit(seconds: Double = 20) async throws -> (code: Int32, stdout: Data) {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let text = try? String(contentsOf: exitCodeURL, encoding: .utf8), let code = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return (code, (try? Data(contentsOf: outputURL)) ?? Data())
            }
            if Date() > deadline { throw await TmuxError.timeout("pick to exit", screen: (try? screen()) ?? "") }
            await pause(30_000)
        }
    }

    /// The pid of pickerctl: the shell's only child.
    func pickPID() async throws -> pid_t? {
        guard let shell = try? String(contentsOf: pidURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        let r = try await runProcess("/usr/bin/pgrep", ["-P", shell])
        return r.stdoutText.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    private func tmuxCommand(_ args: [String]) async throws {
        let r = try await runProcess(tmux, ["-S", socket] + args)
        guard r.exitCode == 0 else { throw TmuxError.failed("\(args.first ?? ""): \(r)") }
    }

    deinit {
        // pick writes its state (the last album, under HOME = directory) as it ends: wait for it to be
        // gone before the folder is removed, or it comes back (a fresh-clone run's guard found one).
        let shell = try? String(contentsOf: pidURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = shell.flatMap { try? runProcessBlocking("/usr/bin/pgrep", ["-P", $0]).stdoutText } ?? ""
        _ = try? runProcessBlocking(tmux, ["-S", socket, "kill-server"])
        for pid in children.split(separator: "\n").compactMap({ pid_t($0) }) { Self.waitUntilGone(pid, seconds: 5) }
        try? FileManager.default.removeItem(at: directory)
        slot.release()
    }

    /// Waits until `pid` has ended (no longer in /proc, or a zombie), at most `seconds`.
    private static func waitUntilGone(_ pid: pid_t, seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] != "Z" else { return }
            usleep(20_000)
        }
    }
}
