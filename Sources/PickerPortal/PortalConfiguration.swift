#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// What pickerd-portal runs with: pickerd's socket, the terminal for `pick`, and pickerctl.
public struct PortalConfiguration: Sendable {
    public var socketPath: String
    /// Words before the pick command (nil: no terminal found; requests then end with response 2;
    /// empty: `terminal = none`, nothing is opened and a client serves the session).
    public var terminal: [String]?
    public var pickerctl: String
    /// Where each request's private folder is made (`$XDG_RUNTIME_DIR`, else the temp folder).
    public var runtimeDirectory: String
    public var replace: Bool
    /// Where requests that are not photo picks go: nil for the backend the frontend's rules give
    /// without pickerd, `none`, a portal file's name (`gtk`) or a D-Bus name.
    public var forward: String?

    public init(socketPath: String, terminal: [String]?, pickerctl: String, runtimeDirectory: String, replace: Bool = false,
                forward: String? = nil) {
        self.socketPath = socketPath
        self.terminal = terminal
        self.pickerctl = pickerctl
        self.runtimeDirectory = runtimeDirectory
        self.replace = replace
        self.forward = forward
    }

    /// `key = value` lines of portal.conf (`#` starts a comment); unknown keys are ignored.
    public static func parseConfigFile(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: " \t")
            guard !trimmed.hasPrefix("#"), let eq = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<eq].trimmingCharacters(in: " \t")
            out[String(key)] = trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: " \t")
        }
        return out
    }

    /// From the environment and `$XDG_CONFIG_HOME/pickerd/portal.conf` (`terminal`, `pickerctl`, `forward`);
    /// pickerctl defaults to the one beside this executable, else the one on PATH.
    public static func resolve(environment env: [String: String], configText: String?, socket: String?,
                               executableDirectory: String?, replace: Bool) -> PortalConfiguration {
        let file = configText.map(parseConfigFile) ?? [:]
        let path = env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let terminal = TerminalCommand.resolve(configured: env["PICKERD_PORTAL_TERMINAL"] ?? file["terminal"],
                                               terminalVariable: env["TERMINAL"]) { ChildOutput.find($0, in: path) }
        let beside = executableDirectory.map { $0 + "/pickerctl" }
        let pickerctl = env["PICKERD_PORTAL_PICKERCTL"] ?? file["pickerctl"]
            ?? beside.flatMap { access($0, X_OK) == 0 ? $0 : nil } ?? ChildOutput.find("pickerctl", in: path) ?? "pickerctl"
        return PortalConfiguration(socketPath: socket ?? DefaultSocketPath.resolve(environment: env), terminal: terminal,
                                   pickerctl: pickerctl, runtimeDirectory: env["XDG_RUNTIME_DIR"] ?? env["TMPDIR"] ?? "/tmp",
                                   replace: replace, forward: (env["PICKERD_PORTAL_FORWARD"] ?? file["forward"]).flatMap { $0.isEmpty ? nil : $0 })
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
