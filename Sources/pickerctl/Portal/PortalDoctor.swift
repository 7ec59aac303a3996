#if canImport(Glibc)
import Glibc
#endif
import PickerPortalRules
import PickerSystem

/// `pickerctl portal doctor`: the frontend's version, the backend that answers FileChooser by that
/// version's rules (for the running frontend, from its own environment; else as the drop-in would
/// start it), pickerd-portal's activation file, and whether pickerd answers.
struct PortalDoctor {
    /// One finding: a label, what was found, and whether it is a problem.
    struct Line {
        var label: String
        var text: String
        var key: String
        var value: JSONValue
    }

    var lines: [Line] = []
    /// What to do, when pickerd would not answer; nil when it would.
    var problem: CLIError?

    private mutating func add(_ label: String, _ text: String, key: String, _ value: JSONValue) {
        lines.append(Line(label: label, text: text, key: key, value: value))
    }

    private mutating func fail(_ message: String, _ code: ExitCode = .failure) {
        if problem == nil { problem = CLIError(message: message, exitCode: code) }
    }

    /// Runs every check. - Parameter daemon: pings pickerd; its version, or the error.
    init(_ env: PortalEnvironment, daemon: () -> Result<String, CLIError>) {
        guard let frontend = PortalFrontend.detect(env) else {
            add("frontend", "xdg-desktop-portal not found (\(PortalFrontend.knownPaths.joined(separator: ", ")))", key: "frontend", .null)
            fail("xdg-desktop-portal is not installed: install it (Debian: apt install xdg-desktop-portal), then run pickerctl portal setup")
            return
        }
        let running = RunningFrontend.find(env)
        add("frontend", "\(frontend.path) \(frontend.version)" + (running.map { ", running (pid \($0.pid))" } ?? ", not running (the first portal call starts it)"),
            key: "frontend", .object([("path", .string(frontend.path)), ("version", .string(frontend.version.description)),
                                      ("pid", running.map { .int($0.pid) } ?? .null)]))
        add("rules", frontend.readsPortalsConf ? "portals.conf chooses the backend (1.17 and later)"
                : "no portals.conf before 1.17: UseIn against XDG_CURRENT_DESKTOP chooses the backend", key: "rules",
            .string(frontend.readsPortalsConf ? "portals.conf" : "UseIn"))
        let configured = Self.configuredEnvironment(env)
        let configuredChoice = Self.choose(frontend, configured)
        var choice = configuredChoice
        var view = configured
        if let running {
            var seen = env
            seen.variables.merge(running.variables) { _, theirs in theirs }
            seen.variables["XDG_CURRENT_DESKTOP"] = running.variables["XDG_CURRENT_DESKTOP"] ?? ""
            seen.variables["XDG_DESKTOP_PORTAL_DIR"] = running.variables["XDG_DESKTOP_PORTAL_DIR"]
            choice = Self.choose(frontend, seen)
            view = seen
        }
        add("desktops", choice.desktops.isEmpty ? "(XDG_CURRENT_DESKTOP is empty)" : choice.desktops.joined(separator: ":"),
            key: "desktops", .array(choice.desktops.map { .string($0) }))
        add("portal files", choice.folders.joined(separator: ", ") + ": "
                + (choice.backends.isEmpty ? "none" : choice.backends.map(\.name).joined(separator: ", ")),
            key: "portal_files", .array(choice.backends.map { .string($0.path) }))
        if choice.folders == [env.userPortalFolder] {
            let linked = Set(choice.backends.map(\.name))
            let missing = PortalFiles.names(in: frontend.systemPortalFolder).filter { $0.hasSuffix(".portal") && !linked.contains(String($0.dropLast(7))) }
            if !missing.isEmpty {
                add("not linked", missing.joined(separator: ", ") + " (installed since setup: run pickerctl portal setup again)",
                    key: "not_linked", .array(missing.map { .string($0) }))
            }
        }
        let answering = choice.result.backend
        add("FileChooser", (answering.map { "\($0.name) (\($0.path))" } ?? "nobody") + ": " + choice.result.reason,
            key: "file_chooser", .optional(answering?.name))
        if answering?.name != "pickerd" {
            if running != nil, configuredChoice.result.backend?.name == "pickerd" {
                fail("the running frontend asks \(answering?.name ?? "nobody") for FileChooser; it reads the setup when it starts: "
                     + "systemctl --user daemon-reload && systemctl --user restart xdg-desktop-portal.service")
            } else {
                fail("pickerd does not answer FileChooser: run pickerctl portal setup")
            }
        }
        let next = PortalLookup(frontend, view, excluding: "org.freedesktop.impl.portal.desktop.pickerd").result
        add("saving", (next.backend.map { "\($0.name) (\($0.dbusName)): \(next.reason)" }
                ?? "nowhere: no other FileChooser backend; apps cannot save with pickerd as FileChooser (apt install xdg-desktop-portal-gtk)")
                + "; pickerd-portal forwards what is not a photo pick there unless `forward =` in portal.conf says otherwise",
            key: "forward", .optional(next.backend?.name))
        checkActivation(env)
        switch daemon() {
        case .success(let version): add("daemon", "\(version) answers", key: "daemon", .bool(true))
        case .failure(let error):
            add("daemon", "does not answer: \(error.message)", key: "daemon", .bool(false))
            fail("pickerd does not answer on its socket: systemctl --user enable --now pickerd.socket (or start pickerd)", .unreachable)
        }
        add("undo", "pickerctl portal remove", key: "undo", .string("pickerctl portal remove"))
    }

    /// pickerd-portal on PATH, and the D-Bus file that lets the frontend's first call start it.
    private mutating func checkActivation(_ env: PortalEnvironment) {
        let onPath = ChildOutput.find("pickerd-portal", in: env["PATH"] ?? "/usr/bin:/bin")
        add("pickerd-portal", onPath ?? "not on PATH", key: "pickerd_portal", .optional(onPath))
        let service = env.dbusServiceFolders.map { $0 + "/" + PortalEnvironment.dbusServiceName }.first(where: PortalFiles.isFile)
        let exec = service.flatMap(PortalFiles.read).flatMap { KeyFile($0)["D-BUS Service", "Exec"] }
        let program = exec.flatMap { $0.split(separator: " ").first.map(String.init) }
        add("D-Bus service", service.map { "\($0) (Exec=\(exec ?? "?"))" } ?? "none in \(env.dbusServiceFolders.joined(separator: ", "))",
            key: "dbus_service", .optional(service))
        if service == nil {
            fail("the session bus has no activation file for pickerd-portal: run pickerctl portal setup (or make install)")
        } else if let program, access(program, X_OK) != 0 {
            fail("\(service ?? "") starts \(program), which is not an executable: run make install, or pickerctl portal remove then setup")
        }
    }

    /// The frontend's environment as it would be started now: ours, with the drop-in's
    /// `Environment=` and, when its command line puts pickerd first, `pickerd` before our desktops.
    static func configuredEnvironment(_ env: PortalEnvironment) -> PortalEnvironment {
        var out = env
        guard let text = PortalFiles.read(env.dropIn) else { return out }
        out.variables.merge(UnitEnvironment.assignments(text)) { _, unit in unit }
        if text.contains("XDG_CURRENT_DESKTOP=\"pickerd") {
            out.variables["XDG_CURRENT_DESKTOP"] = (["pickerd"] + env.desktops).joined(separator: ":")
        }
        return out
    }

    /// The folders, portal files and FileChooser choice of `frontend` run with `env`.
    static func choose(_ frontend: PortalFrontend, _ env: PortalEnvironment) -> PortalLookup { PortalLookup(frontend, env) }

    var text: String {
        let width = lines.map(\.label.count).max() ?? 0
        return lines.map { $0.label + ":" + String(repeating: " ", count: width - $0.label.count + 1) + $0.text }.joined(separator: "\n")
            + (problem == nil ? "\nok: pickerd answers FileChooser" : "")
    }

    var json: JSONValue {
        .object(lines.map { ($0.key, $0.value) } + [("ok", .bool(problem == nil)), ("advice", .optional(problem?.message))])
    }
}
