#if canImport(Glibc)
import Glibc
#endif
import PickerPortalRules
import PickerSystem

/// What `pickerctl portal setup` changes so the frontend found asks pickerd for FileChooser:
/// - pickerd.portal where that version reads portal files (nothing when it is there already):
///   from 1.20.1 `$XDG_DATA_HOME/xdg-desktop-portal/portals`; before, the frontend reads one folder
///   only, so a user folder holds pickerd.portal and links to the system's portal files and the
///   drop-in points `XDG_DESKTOP_PORTAL_DIR` at it;
/// - the choice: from 1.17 a `[preferred]` line in the user's `portals.conf`; before, the drop-in
///   starts the frontend with `pickerd` first in `XDG_CURRENT_DESKTOP` (pickerd.portal has `UseIn=pickerd`);
/// - the D-Bus activation file, when the session bus has none for pickerd-portal.
struct PortalSetup {
    var env: PortalEnvironment
    var frontend: PortalFrontend
    /// pickerd-portal's path, for a D-Bus activation file.
    var portalExecutable: String?

    /// pickerd.portal as setup writes it (the keys of contrib/portal/pickerd.portal).
    static let portalFile = """
        \(PortalChange.header)
        [portal]
        DBusName=org.freedesktop.impl.portal.desktop.pickerd
        Interfaces=org.freedesktop.impl.portal.FileChooser;
        UseIn=pickerd

        """

    /// The changes, in the order they are made.
    func plan() throws(CLIError) -> [PortalChange] {
        var changes: [PortalChange] = []
        var dropInLines: [String] = []
        // Where pickerd.portal is read from.
        if frontend.readsDataDirs {
            let folders = [env.dataHomePortalFolder] + env.dataDirs.map { $0 + "/xdg-desktop-portal/portals" } + [frontend.systemPortalFolder]
            let own = env.dataHomePortalFolder + "/pickerd.portal"
            if PortalChange.isOurs(own) || !folders.contains(where: { PortalFiles.isFile($0 + "/pickerd.portal") }) {
                changes.append(try .write(Self.portalFile, to: own))
            }
        } else if !PortalFiles.isFile(frontend.systemPortalFolder + "/pickerd.portal") {
            changes += try userPortalFolder()
            dropInLines.append("Environment=" + (try Self.unitWord("XDG_DESKTOP_PORTAL_DIR=" + env.userPortalFolder)))
        }
        // Which backend answers.
        if frontend.readsPortalsConf {
            changes.append(portalsConf())
        } else {
            dropInLines += try desktopFirst()
        }
        if !dropInLines.isEmpty {
            let text = """
                \(PortalChange.header)
                # xdg-desktop-portal \(frontend.version): pickerd answers FileChooser, the desktop's own backends
                # every other portal. Applied when the frontend restarts:
                #   systemctl --user daemon-reload && systemctl --user restart xdg-desktop-portal.service
                [Service]
                \(dropInLines.joined(separator: "\n"))

                """
            changes.append(try .write(text, to: env.dropIn))
        }
        if let service = try dbusService() { changes.append(service) }
        return changes
    }

    /// For frontends that read one portal folder: pickerd.portal and a link to each system portal
    /// file (links whose target is gone are taken out; a file the user put there is kept).
    private func userPortalFolder() throws(CLIError) -> [PortalChange] {
        let folder = env.userPortalFolder
        var changes = [try PortalChange.write(Self.portalFile, to: folder + "/pickerd.portal")]
        let system = frontend.systemPortalFolder
        for name in PortalFiles.names(in: system) where name.hasSuffix(".portal") && name != "pickerd.portal" {
            let path = folder + "/" + name, target = system + "/" + name
            switch PortalFiles.kind(path) {
            case .missing: changes.append(PortalChange(path: path, action: .link(target)))
            case .symlink where PortalFiles.linkTarget(path) == target:
                changes.append(PortalChange(path: path, action: .link(target), unchanged: true))
            default: continue
            }
        }
        for name in PortalFiles.names(in: folder) where Self.isSystemLink(folder + "/" + name) && !PortalFiles.isFile(folder + "/" + name) {
            changes.append(PortalChange(path: folder + "/" + name, action: .remove))
        }
        return changes
    }

    /// Whether `path` is a link setup made: a symlink to a `…/xdg-desktop-portal/portals/*.portal`.
    static func isSystemLink(_ path: String) -> Bool {
        guard PortalFiles.kind(path) == .symlink, let target = PortalFiles.linkTarget(path) else { return false }
        return target.hasSuffix(".portal") && PortalFiles.folder(of: target).hasSuffix("/xdg-desktop-portal/portals")
    }

    /// The drop-in lines that start the frontend with `pickerd` first in `XDG_CURRENT_DESKTOP`
    /// (the session's desktops after it, so every other portal still goes to the desktop's backend).
    private func desktopFirst() throws(CLIError) -> [String] {
        guard frontend.path.allSatisfy({ $0.isLetter || $0.isNumber || "/._+-".contains($0) }) else {
            throw CLIError(message: "the frontend's path \(frontend.path) has characters a unit's command line cannot carry", exitCode: .failure)
        }
        // `$$` is systemd's `$`: the shell, not systemd, expands the session's XDG_CURRENT_DESKTOP.
        return ["ExecStart=",
                "ExecStart=/bin/sh -c 'XDG_CURRENT_DESKTOP=\"pickerd$${XDG_CURRENT_DESKTOP:+:$$XDG_CURRENT_DESKTOP}\" exec \(frontend.path) \"$$@\"' xdg-desktop-portal"]
    }

    /// The user's portals.conf with pickerd first for FileChooser: their file edited, or a new one
    /// holding what the frontend reads now (a system `DESKTOP-portals.conf`) plus the line.
    private func portalsConf() -> PortalChange {
        let path = PortalsConf.userTarget(env, frontend: frontend)
        if let existing = PortalFiles.read(path) {
            let edited = PortalsConf.adding(to: existing)
            return PortalChange(path: path, action: PortalChange.isOurs(path) ? .write(edited) : .edit(edited), unchanged: edited == existing)
        }
        let seed = PortalsConf.lookup(env, frontend: frontend).flatMap { PortalFiles.read($0.path) } ?? ""
        return PortalChange(path: path, action: .write(PortalChange.header + "\n" + PortalsConf.adding(to: seed)))
    }

    /// A D-Bus activation file for pickerd-portal in `$XDG_DATA_HOME`, when the bus has none.
    private func dbusService() throws(CLIError) -> PortalChange? {
        let own = env.userDBusService
        let found = env.dbusServiceFolders.map { $0 + "/" + PortalEnvironment.dbusServiceName }.first(where: PortalFiles.isFile)
        guard found == nil || found == own && PortalChange.isOurs(own) else { return nil }
        guard let executable = portalExecutable else {
            throw CLIError(message: "pickerd-portal is not beside pickerctl nor on PATH, and the session bus cannot start it: run make install",
                           exitCode: .failure)
        }
        let text = """
            \(PortalChange.header)
            # D-Bus activation of pickerd-portal: the frontend's first FileChooser call starts it.
            [D-BUS Service]
            Name=org.freedesktop.impl.portal.desktop.pickerd
            Exec=\(executable)

            """
        return try .write(text, to: own)
    }

    /// `NAME=value` as one word of a unit file: `%` doubled, quoted when it holds a space.
    static func unitWord(_ assignment: String) throws(CLIError) -> String {
        guard !assignment.contains(where: { "\"\\\n$'".contains($0) }) else {
            throw CLIError(message: "\(assignment) has characters a unit file cannot carry plainly", exitCode: .failure)
        }
        let escaped = assignment.replacingOccurrences("%", "%%")
        return escaped.contains(" ") ? "\"" + escaped + "\"" : escaped
    }

    /// pickerd-portal beside this pickerctl (`/proc/self/exe`), else on `PATH`.
    static func findPortalExecutable(_ env: PortalEnvironment) -> String? {
        if let me = PortalFiles.linkTarget("/proc/self/exe") {
            let beside = PortalFiles.folder(of: me) + "/pickerd-portal"
            if access(beside, X_OK) == 0 { return beside }
        }
        return ChildOutput.find("pickerd-portal", in: env["PATH"] ?? "/usr/bin:/bin")
    }
}

extension String {
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
