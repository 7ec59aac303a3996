/// `portals.conf` (xdg-desktop-portal 1.17+): where the frontend finds it. pickerctl adds the one
/// line `pickerctl portal setup` writes to it (PortalsConfEdit.swift).
package enum PortalsConf {
    package static let key = PortalBackend.fileChooser

    /// The config files in the order the frontend looks (`portals.conf(5)`): per folder,
    /// `DESKTOP-portals.conf` for each desktop (lower case), then `portals.conf`; folders
    /// `$XDG_CONFIG_HOME`, `$XDG_CONFIG_DIRS`, `/etc`, `$XDG_DATA_HOME`, `$XDG_DATA_DIRS`, then the frontend's datadir.
    package static func candidates(_ env: PortalEnvironment, frontend: PortalFrontend) -> [String] {
        let folders = ([env.configHome] + env.configDirs + ["/etc"] + [env.dataHome] + env.dataDirs).map { $0 + "/xdg-desktop-portal" }
            + [frontend.systemDataFolder]
        var seen = Set<String>()
        return folders.filter { seen.insert($0).inserted }.flatMap { folder in
            env.desktops.map { "\(folder)/\($0.lowercased())-portals.conf" } + ["\(folder)/portals.conf"]
        }
    }

    /// The config the frontend would read now, if any.
    package static func lookup(_ env: PortalEnvironment, frontend: PortalFrontend) -> (path: String, keys: KeyFile)? {
        for path in candidates(env, frontend: frontend) where PortalFiles.isFile(path) {
            if let text = PortalFiles.read(path) { return (path, KeyFile(text)) }
        }
        return nil
    }

    /// The user's config file setup edits: the first of the user's own that exists, else a new
    /// `DESKTOP-portals.conf` for the current desktop (`portals.conf` with none), which the frontend
    /// reads before any system file.
    package static func userTarget(_ env: PortalEnvironment, frontend: PortalFrontend) -> String {
        let own = candidates(env, frontend: frontend).filter { $0.hasPrefix(env.userConfigFolder + "/") }
        return own.first(where: PortalFiles.isFile) ?? own.first ?? env.userConfigFolder + "/portals.conf"
    }
}
