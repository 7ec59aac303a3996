/// An ini file as GLib's key files read them: `[section]`, `key=value`, `#` comments.
package struct KeyFile {
    package var sections: [String: [String: String]] = [:]

    package init(_ text: String) {
        var section = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if let eq = line.firstIndex(of: "=") {
                let key = String(line[..<eq]).trimmingWhitespace
                sections[section, default: [:]][key] = String(line[line.index(after: eq)...]).trimmingWhitespace
            }
        }
    }

    package subscript(_ section: String, _ key: String) -> String? { sections[section]?[key] }

    /// A `;`-separated list value, empty parts dropped.
    package func list(_ section: String, _ key: String) -> [String] {
        (self[section, key] ?? "").split(separator: ";").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    package var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}

/// One backend's `.portal` file.
package struct PortalBackend {
    /// The file name without `.portal` ("gtk", "pickerd"): what `portals.conf` names.
    package var name: String
    package var path: String
    package var dbusName: String
    package var interfaces: [String]
    package var useIn: [String]

    package init(name: String, path: String, dbusName: String, interfaces: [String], useIn: [String]) {
        (self.name, self.path, self.dbusName, self.interfaces, self.useIn) = (name, path, dbusName, interfaces, useIn)
    }

    package static let fileChooser = "org.freedesktop.impl.portal.FileChooser"

    package var implementsFileChooser: Bool { interfaces.contains(Self.fileChooser) }

    package func isUsed(in desktop: String) -> Bool { useIn.contains { $0.lowercased() == desktop.lowercased() } }

    /// The `.portal` files of `folders`, in order; a name found earlier hides a later one. Files that
    /// cannot be read or lack `DBusName`/`Interfaces` are skipped, as the frontend skips them.
    package static func load(from folders: [String]) -> [PortalBackend] {
        var out: [PortalBackend] = []
        for folder in folders {
            for file in PortalFiles.names(in: folder) where file.hasSuffix(".portal") {
                let name = String(file.dropLast(".portal".count))
                guard !out.contains(where: { $0.name == name }), let text = PortalFiles.read(folder + "/" + file) else { continue }
                let keys = KeyFile(text)
                guard let bus = keys["portal", "DBusName"], !keys.list("portal", "Interfaces").isEmpty else { continue }
                out.append(PortalBackend(name: name, path: folder + "/" + file, dbusName: bus,
                                         interfaces: keys.list("portal", "Interfaces"), useIn: keys.list("portal", "UseIn")))
            }
        }
        return out
    }
}

/// Which backend answers FileChooser, and why: the frontend's own rules, per version.
package struct FileChooserChoice {
    package var backend: PortalBackend?
    package var reason: String

    package init(backend: PortalBackend?, reason: String) { (self.backend, self.reason) = (backend, reason) }

    /// The rules of 1.16 (`portal-impl.c`): for each desktop of `XDG_CURRENT_DESKTOP` in order, the
    /// first FileChooser backend whose `UseIn` names it (ties by file path); else any FileChooser
    /// backend, in the order the desktops sort them.
    package static func byUseIn(_ backends: [PortalBackend], desktops: [String]) -> FileChooserChoice {
        let sorted = backends.sorted { a, b in
            for desktop in desktops {
                let (useA, useB) = (a.isUsed(in: desktop), b.isUsed(in: desktop))
                if useA != useB { return useA }
                if useA { break }
            }
            return a.path < b.path
        }
        let choosers = sorted.filter(\.implementsFileChooser)
        for desktop in desktops {
            if let hit = choosers.first(where: { $0.isUsed(in: desktop) }) {
                return FileChooserChoice(backend: hit, reason: "UseIn=\(hit.useIn.joined(separator: ";")) names \"\(desktop)\" of XDG_CURRENT_DESKTOP")
            }
        }
        guard let any = choosers.first else { return FileChooserChoice(backend: nil, reason: "no portal file implements FileChooser") }
        return FileChooserChoice(backend: any, reason: "no UseIn names a desktop of XDG_CURRENT_DESKTOP (\(desktops.joined(separator: ":"))); the frontend falls back to any")
    }

    /// The rules of 1.17+: the first `portals.conf` found (`PortalsConf.lookup`) names the backend in
    /// `[preferred]` (`org.freedesktop.impl.portal.FileChooser`, else `default`; `*` any, `none` none);
    /// with no config or no entry, the `UseIn` rules.
    package static func byConfig(_ backends: [PortalBackend], desktops: [String], config: (path: String, keys: KeyFile)?) -> FileChooserChoice {
        guard let config else {
            let legacy = byUseIn(backends, desktops: desktops)
            return FileChooserChoice(backend: legacy.backend, reason: "no portals.conf found; " + legacy.reason)
        }
        let key = config.keys["preferred", PortalBackend.fileChooser] != nil ? PortalBackend.fileChooser : "default"
        let names = config.keys.list("preferred", key)
        let choosers = backends.filter(\.implementsFileChooser)
        for name in names {
            if name == "none" { return FileChooserChoice(backend: nil, reason: "\(config.path): \(key)=…none") }
            if name == "*", let any = byUseIn(choosers, desktops: desktops).backend {
                return FileChooserChoice(backend: any, reason: "\(config.path): \(key)=…*")
            }
            if let hit = choosers.first(where: { $0.name == name }) {
                return FileChooserChoice(backend: hit, reason: "\(config.path): \(key)=\(names.joined(separator: ";"))")
            }
        }
        let legacy = byUseIn(backends, desktops: desktops)
        return FileChooserChoice(backend: legacy.backend, reason: "\(config.path) names no installed FileChooser backend; " + legacy.reason)
    }
}
