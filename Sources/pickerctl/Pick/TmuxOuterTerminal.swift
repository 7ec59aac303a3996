#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// What tmux knows about the terminal outside it. tmux answers DA1 itself, so a sixel terminal
/// outside cannot be seen from the pane by asking; tmux can say it: `client_termfeatures` lists
/// `sixel` when tmux knows the outer terminal has it (tmux 3.4 from its DA1; 3.3a only from a
/// `terminal-features` setting), `client_termname` names terminals that always have it (foot,
/// mlterm, contour), and `allow-passthrough` says whether a wrapped sixel gets through at all.
struct TmuxOuterTerminal: Equatable {
    /// `allow-passthrough` is `on` or `all` for this pane.
    var passthrough: Bool
    /// The attached client's terminal features (`client_termfeatures`, comma-separated).
    var features: [String]
    /// The attached client's `TERM` (`client_termname`).
    var termName: String

    /// Outer terminals whose every version draws sixel.
    static let sixelTerminals = ["foot", "mlterm", "contour"]

    /// Sixel goes through tmux to the outer terminal.
    var showsSixel: Bool {
        passthrough && (features.contains("sixel") || Self.sixelTerminals.contains { termName.hasPrefix($0) })
    }

    /// Parses tmux's answers: the option's value, then `client_termfeatures|client_termname`.
    init(passthroughValue: String, clientValue: String) {
        let parts = clientValue.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let featuresValue = parts.first ?? ""
        termName = parts.count > 1 ? String(parts[1].prefix { $0 != "\n" && $0 != " " }) : ""
        let value = passthroughValue.split(whereSeparator: { $0 == " " || $0 == "\n" }).first.map(String.init) ?? ""
        passthrough = value == "on" || value == "all"
        features = featuresValue.split(whereSeparator: { $0 == "," || $0 == "\n" || $0 == " " }).map(String.init)
    }

    /// Asks the tmux server of `$TMUX` about the pane `$TMUX_PANE`; nil outside tmux or when tmux does not answer.
    static func ask() -> TmuxOuterTerminal? {
        guard let tmuxValue = getenv("TMUX"), let paneValue = getenv("TMUX_PANE") else { return nil }
        let socket = String(String(cString: tmuxValue).split(separator: ",").first ?? "")
        let pane = String(cString: paneValue)
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        guard !socket.isEmpty, let tmux = ChildOutput.find("tmux", in: path),
              let option = ChildOutput.run(tmux, ["-S", socket, "show-options", "-p", "-A", "-v", "-t", pane, "allow-passthrough"]),
              let features = ChildOutput.run(tmux, ["-S", socket, "display-message", "-p", "-t", pane, "#{client_termfeatures}|#{client_termname}"])
        else { return nil }
        return TmuxOuterTerminal(passthroughValue: option, clientValue: features)
    }
}
