import PickerPortalRules
import PickerClient
import PickerProtocol
import PickerSystem

private let dryRunOption = OptionSpec(name: "--dry-run", valueName: nil, help: "print what would be written or removed, change nothing")
private let restartOption = OptionSpec(name: "--restart", valueName: nil,
                                       help: "then run systemctl --user daemon-reload and try-restart xdg-desktop-portal.service")
private let applyHint = "systemctl --user daemon-reload && systemctl --user restart xdg-desktop-portal.service"

/// `portal setup|doctor|remove`: make the desktop's file chooser pickerd (docs/PORTAL.md).
let portalCommands: [CommandSpec] = [
    CommandSpec(words: ["portal", "setup"], summary: "make the desktop's FileChooser portal use pickerd (files in your home only)",
                options: [dryRunOption, restartOption],
                details: """
                    For the xdg-desktop-portal version installed: from 1.17 a [preferred] line
                    org.freedesktop.impl.portal.FileChooser=pickerd in your portals.conf (your other lines kept);
                    before 1.17 (Debian 12) a drop-in ~/.config/systemd/user/xdg-desktop-portal.service.d/pickerd.conf
                    that puts pickerd first in the frontend's XDG_CURRENT_DESKTOP and, when pickerd.portal is not in the
                    system's portal folder, points XDG_DESKTOP_PORTAL_DIR at ~/.local/share/pickerd/portals (pickerd.portal
                    plus links to the system's portal files). Prints every file written; running it again changes nothing.
                    Undo: pickerctl portal remove.
                    """) { inv throws(CLIError) in
        let env = PortalEnvironment()
        guard let frontend = PortalFrontend.detect(env) else {
            throw CLIError(message: "xdg-desktop-portal is not installed: install it (Debian: apt install xdg-desktop-portal)", exitCode: .failure)
        }
        let setup = PortalSetup(env: env, frontend: frontend, portalExecutable: PortalSetup.findPortalExecutable(env))
        let changes = try setup.plan()
        let dryRun = inv.flag("--dry-run")
        if !dryRun { for change in changes { try change.apply() } }
        let route = frontend.readsPortalsConf ? "portals.conf" : "systemd drop-in"
        if inv.json {
            Output.json(.object([("frontend", .string(frontend.path)), ("version", .string(frontend.version.description)),
                                 ("route", .string(route)), ("dry_run", .bool(dryRun)), ("changes", .array(changes.map { $0.json() })),
                                 ("undo", .string("pickerctl portal remove"))]))
        } else {
            Output.line("xdg-desktop-portal \(frontend.version) (\(frontend.path)): " + (frontend.readsPortalsConf
                ? "pickerd first for FileChooser in portals.conf"
                : "no portals.conf before 1.17; a systemd drop-in starts the frontend with pickerd first in XDG_CURRENT_DESKTOP"))
            for change in changes { Output.line(change.text(dryRun: dryRun)) }
            if changes.allSatisfy(\.unchanged) { Output.line("already set up: nothing to change") }
            Output.line("apply:  " + (inv.flag("--restart") ? "(--restart) " : "") + applyHint)
            Output.line("check:  pickerctl portal doctor")
            Output.line("undo:   pickerctl portal remove")
        }
        if inv.flag("--restart") && !dryRun { try restartFrontend(env) }
    },
    CommandSpec(words: ["portal", "doctor"], summary: "say which backend answers FileChooser and what to fix",
                details: """
                    The xdg-desktop-portal version and whether it runs; the portal files it reads and the backend that
                    answers FileChooser by that version's rules (the running frontend's own environment, else as the
                    drop-in starts it); pickerd-portal's D-Bus activation file; whether pickerd answers on its socket.
                    Exit 0 when pickerd would answer; 1 when the portal setup is missing or not applied yet, 5 when
                    the daemon does not answer (each with what to do).
                    """) { inv throws(CLIError) in
        let doctor = PortalDoctor(PortalEnvironment()) {
            do throws(CLIError) {
                let conn = try inv.connect()
                guard case .pong(let version) = try call(conn, .ping) else { return .failure(CLIError(message: "no pong", exitCode: .failure)) }
                return .success(version)
            } catch { return .failure(error) }
        }
        if inv.json { Output.json(doctor.json) } else { Output.line(doctor.text) }
        if let problem = doctor.problem { throw problem }
    },
    CommandSpec(words: ["portal", "remove"], summary: "undo portal setup: remove only what it wrote",
                options: [dryRunOption, restartOption],
                details: """
                    Deletes the files setup wrote (they start with its header line), the links it made, and its lines in
                    your portals.conf files (the lines they replaced put back), then the folders left empty. A file
                    you wrote yourself is never touched.
                    """) { inv throws(CLIError) in
        let env = PortalEnvironment()
        let changes = PortalRemove.plan(env)
        let dryRun = inv.flag("--dry-run")
        var folders: [String] = []
        if !dryRun {
            for change in changes { try change.apply() }
            folders = PortalRemove.removeEmptyFolders(after: changes, env)
        }
        if inv.json {
            Output.json(.object([("dry_run", .bool(dryRun)), ("changes", .array(changes.map { $0.json() })),
                                 ("folders_removed", .array(folders.map { .string($0) }))]))
        } else {
            if changes.isEmpty { Output.line("nothing to remove: no file of pickerctl portal setup found") }
            for change in changes { Output.line(change.text(dryRun: dryRun)) }
            for folder in folders { Output.line("removed      \(folder)/") }
            if !changes.isEmpty { Output.line("apply:  " + applyHint) }
        }
        if inv.flag("--restart") && !dryRun && !changes.isEmpty { try restartFrontend(env) }
    },
]

/// `systemctl --user daemon-reload`, then `try-restart` of the frontend (started only if it ran).
/// - Throws: exit 1 when systemctl is missing or fails (the files are written all the same).
private func restartFrontend(_ env: PortalEnvironment) throws(CLIError) {
    guard let systemctl = ChildOutput.find("systemctl", in: env["PATH"] ?? "/usr/bin:/bin") else {
        throw CLIError(message: "systemctl not found: restart the frontend yourself", exitCode: .failure)
    }
    let childEnv = env.variables.map { "\($0.key)=\($0.value)" }
    for args in [["--user", "daemon-reload"], ["--user", "try-restart", "xdg-desktop-portal.service"]] {
        guard ChildOutput.run(systemctl, args, environment: childEnv) != nil else {
            throw CLIError(message: "systemctl \(args.joined(separator: " ")) failed: the files are written; run \(applyHint)", exitCode: .failure)
        }
    }
}
