/// What a frontend run with an environment sees: its desktops, the folders it reads portal files from,
/// the backends found there, and which of them answers FileChooser by that version's rules. Shared by
/// `pickerctl portal doctor` and pickerd-portal (which forwards what is not a photo pick to the backend
/// the frontend would use without it).
package struct PortalLookup {
    package var desktops: [String]
    package var folders: [String]
    package var backends: [PortalBackend]
    package var result: FileChooserChoice

    /// - Parameter excluding: a D-Bus name whose backends are left out (pickerd-portal's own, to find
    ///   the next one).
    package init(_ frontend: PortalFrontend, _ env: PortalEnvironment, excluding: String? = nil) {
        desktops = env.desktops
        folders = Self.portalFolders(frontend, env)
        backends = PortalBackend.load(from: folders).filter { $0.dbusName != excluding }
        result = frontend.readsPortalsConf
            ? FileChooserChoice.byConfig(backends, desktops: desktops, config: PortalsConf.lookup(env, frontend: frontend))
            : FileChooserChoice.byUseIn(backends, desktops: desktops)
    }

    /// Where `frontend` run with `env` reads portal files: `XDG_DESKTOP_PORTAL_DIR` alone when set; from
    /// 1.20.1 `$XDG_DATA_HOME`, `$XDG_DATA_DIRS` then its own folder; before, its own folder only.
    package static func portalFolders(_ frontend: PortalFrontend, _ env: PortalEnvironment) -> [String] {
        if let dir = env["XDG_DESKTOP_PORTAL_DIR"] { return [dir] }
        if frontend.readsDataDirs {
            return [env.dataHomePortalFolder] + env.dataDirs.map { $0 + "/xdg-desktop-portal/portals" } + [frontend.systemPortalFolder]
        }
        return [frontend.systemPortalFolder]
    }
}

/// A process's environment (`/proc/PID/environ`, readable for the user's own processes).
package enum ProcessEnvironment {
    package static func read(pid: Int) -> [String: String]? {
        guard let text = PortalFiles.read("/proc/\(pid)/environ") else { return nil }
        var variables: [String: String] = [:]
        for entry in text.split(separator: "\0") {
            guard let eq = entry.firstIndex(of: "=") else { continue }
            variables[String(entry[..<eq])] = String(entry[entry.index(after: eq)...])
        }
        return variables
    }
}
