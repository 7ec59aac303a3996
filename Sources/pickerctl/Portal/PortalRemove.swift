import PickerPortalRules
/// What `pickerctl portal remove` undoes: every file setup wrote (they start with its header),
/// the links it made, and its lines in the user's `portals.conf` files (the rest of them kept),
/// whatever frontend version is installed now. Then the folders setup made, when left empty.
enum PortalRemove {
    static func plan(_ env: PortalEnvironment) -> [PortalChange] {
        var changes: [PortalChange] = []
        let ourFiles = [env.dropIn, env.userPortalFolder + "/pickerd.portal", env.dataHomePortalFolder + "/pickerd.portal", env.userDBusService]
        for path in ourFiles where PortalFiles.kind(path) == .file && PortalChange.isOurs(path) {
            changes.append(PortalChange(path: path, action: .remove))
        }
        for name in PortalFiles.names(in: env.userPortalFolder) where PortalSetup.isSystemLink(env.userPortalFolder + "/" + name) {
            changes.append(PortalChange(path: env.userPortalFolder + "/" + name, action: .remove))
        }
        for name in PortalFiles.names(in: env.userConfigFolder) where name.hasSuffix("portals.conf") {
            let path = env.userConfigFolder + "/" + name
            guard PortalFiles.kind(path) == .file, let text = PortalFiles.read(path) else { continue }
            if PortalChange.isOurs(path) {
                changes.append(PortalChange(path: path, action: .remove))
            } else if PortalsConf.hasOurLines(text) {
                changes.append(PortalChange(path: path, action: .edit(PortalsConf.removing(from: text))))
            }
        }
        return changes
    }

    /// Removes the folders the removed files were in, and their parents, while empty, up to the
    /// user's config and data folders. - Returns: the folders removed.
    static func removeEmptyFolders(after changes: [PortalChange], _ env: PortalEnvironment) -> [String] {
        var removed: [String] = []
        for change in changes {
            guard case .remove = change.action else { continue }
            let folder = PortalFiles.folder(of: change.path)
            let stop = folder.hasPrefix(env.configHome + "/") ? env.configHome : env.dataHome
            removed += PortalFiles.removeEmptyFolders(from: folder, upTo: stop)
        }
        return removed
    }
}
