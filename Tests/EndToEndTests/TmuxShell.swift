import Foundation

/// An interactive shell in a private tmux server (its own socket), driven by keys as a user types.
final class TmuxShell: @unchecked Sendable {
    let tmux: String
    let socket: String
    let prompt: String

    /// Starts `command` in a detached 200x50 tmux session in `directory`, and waits for `prompt`.
    init(_ command: [String], environment: [String: String], directory: URL, prompt: String) async throws {
        guard let tmux = findExecutable("tmux") else { throw TmuxError.missing("tmux") }
        self.tmux = tmux
        self.prompt = prompt
        socket = directory.appendingPathComponent("tmux.sock").path
        let r = try await runProcess(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50",
                                      "-c", directory.path] + command, environment: environment)
        guard r.exitCode == 0 else { throw TmuxError.failed("new-session: \(r)") }
        try await waitForPrompt()
    }

    /// Types `text` literally (no key names).
    func type(_ text: String) async throws { try await tmuxCommand(["send-keys", "-l", "--", text]) }

    /// Presses named keys: "Tab", "Enter", "C-c".
    func press(_ keys: String...) async throws { try await press(keys: keys) }

    func press(keys: [String]) async throws { try await tmuxCommand(["send-keys"] + keys) }

    /// The visible screen as text.
    func screen() async throws -> String {
        let r = try await runProcess(tmux, ["-S", socket, "capture-pane", "-p"])
        guard r.exitCode == 0 else { throw TmuxError.failed("capture-pane: \(r)") }
        return r.stdoutText
    }

    /// The last line of the screen that is not blank (where the command line is).
    func lastLine() async throws -> String {
        try await screen().split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
    }

    /// Polls the screen until `condition` holds; throws with the screen after `seconds`.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 15, _ condition: (String) async throws -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let text = try await screen()
            if try await condition(text) { return text }
            if Date() > deadline { throw TmuxError.timeout(what, screen: text) }
            await pause(30_000)
        }
    }

    /// Waits until the last line is an empty prompt.
    func waitForPrompt() async throws {
        let bare = prompt.trimmingCharacters(in: .whitespaces)
        try await waitFor("an empty prompt") { _ in try await lastLine().trimmingCharacters(in: .whitespaces) == bare }
    }

    private func tmuxCommand(_ args: [String]) async throws {
        let r = try await runProcess(tmux, ["-S", socket] + args)
        guard r.exitCode == 0 else { throw TmuxError.failed("\(args.first ?? ""): \(r)") }
    }

    deinit { _ = try? runProcessBlocking(tmux, ["-S", socket, "kill-server"]) }
}

enum TmuxError: Error, CustomStringConvertible {
    case missing(String)
    case failed(String)
    case timeout(String, screen: String)
    var description: String {
        switch self {
        case .missing(let p): return "\(p) not found"
        case .failed(let m): return "tmux \(m)"
        case let .timeout(what, screen): return "timed out waiting for \(what); screen:\n\(screen)"
        }
    }
}

/// The full path of a program on PATH (or in /usr/bin, /bin), if installed.
func findExecutable(_ name: String) -> String? {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
