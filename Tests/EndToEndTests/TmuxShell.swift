import Foundation

/// An interactive shell in a private tmux server (its own socket), driven by keys as a user types.
final class TmuxShell: @unchecked Sendable {
    let tmux: String
    let socket: String
    let prompt: String

    /// Starts `command` in a detached 200x50 tmux session in `directory`, and waits for `prompt`.
    init(_ command: [String], environment: [String: String], directory: URL, prompt: String) throws {
        guard let tmux = findExecutable("tmux") else { throw TmuxError.missing("tmux") }
        self.tmux = tmux
        self.prompt = prompt
        socket = directory.appendingPathComponent("tmux.sock").path
        let r = try runProcess(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50",
                                      "-c", directory.path] + command, environment: environment)
        guard r.exitCode == 0 else { throw TmuxError.failed("new-session: \(r)") }
        try waitForPrompt()
    }

    /// Types `text` literally (no key names).
    func type(_ text: String) throws { try tmuxCommand(["send-keys", "-l", "--", text]) }

    /// Presses named keys: "Tab", "Enter", "C-c".
    func press(_ keys: String...) throws { try press(keys: keys) }

    func press(keys: [String]) throws { try tmuxCommand(["send-keys"] + keys) }

    /// The visible screen as text.
    func screen() throws -> String {
        let r = try runProcess(tmux, ["-S", socket, "capture-pane", "-p"])
        guard r.exitCode == 0 else { throw TmuxError.failed("capture-pane: \(r)") }
        return r.stdoutText
    }

    /// The last line of the screen that is not blank (where the command line is).
    func lastLine() throws -> String {
        try screen().split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
    }

    /// Polls the screen until `condition` holds; throws with the screen after `seconds`.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 15, _ condition: (String) throws -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let text = try screen()
            if try condition(text) { return text }
            if Date() > deadline { throw TmuxError.timeout(what, screen: text) }
            usleep(30_000)
        }
    }

    /// Waits until the last line is an empty prompt.
    func waitForPrompt() throws {
        let bare = prompt.trimmingCharacters(in: .whitespaces)
        try waitFor("an empty prompt") { _ in try lastLine().trimmingCharacters(in: .whitespaces) == bare }
    }

    private func tmuxCommand(_ args: [String]) throws {
        let r = try runProcess(tmux, ["-S", socket] + args)
        guard r.exitCode == 0 else { throw TmuxError.failed("\(args.first ?? ""): \(r)") }
    }

    deinit { _ = try? runProcess(tmux, ["-S", socket, "kill-server"]) }
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
