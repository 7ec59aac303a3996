#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// A dotted version ("1.16.0"), compared part by part.
package struct PortalVersion: Comparable, CustomStringConvertible {
    package var parts: [Int]

    package init?(_ text: String) {
        let parts = text.split(separator: ".").map { Int($0.prefix { $0.isNumber }) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        self.parts = parts.compactMap { $0 }
    }

    package init(_ parts: Int...) { self.parts = parts }

    package var description: String { parts.map(String.init).joined(separator: ".") }

    package static func < (a: PortalVersion, b: PortalVersion) -> Bool {
        for i in 0..<max(a.parts.count, b.parts.count) {
            let (x, y) = (i < a.parts.count ? a.parts[i] : 0, i < b.parts.count ? b.parts[i] : 0)
            if x != y { return x < y }
        }
        return false
    }

    /// `portals.conf` chooses backends (1.17.0, "Rework how portal implementations are loaded").
    package static let portalsConf = PortalVersion(1, 17, 0)
    /// Portal files are also read from `$XDG_DATA_HOME` and `$XDG_DATA_DIRS` (1.20.1, #603).
    package static let dataDirsPortals = PortalVersion(1, 20, 1)
}

/// The installed xdg-desktop-portal frontend: where it is, which version, where it reads portal files.
package struct PortalFrontend {
    package var path: String
    package var version: PortalVersion

    package init(path: String, version: PortalVersion) { (self.path, self.version) = (path, version) }

    /// Where distributions put the frontend; `PICKERD_PORTAL_FRONTEND` names another.
    package static let knownPaths = ["/usr/libexec/xdg-desktop-portal", "/usr/lib/xdg-desktop-portal"]

    /// The frontend and its version (`xdg-desktop-portal --version` prints "xdg-desktop-portal 1.16.0").
    /// - Returns: nil when none is installed or it does not say its version.
    package static func detect(_ env: PortalEnvironment) -> PortalFrontend? {
        let candidates = env["PICKERD_PORTAL_FRONTEND"].map { [$0] } ?? knownPaths
        guard let path = candidates.first(where: { access($0, X_OK) == 0 }),
              let out = ChildOutput.run(path, ["--version"], environment: ["PATH=/usr/bin:/bin", "LC_ALL=C"]),
              let word = out.split(whereSeparator: { $0 == " " || $0 == "\n" }).last(where: { $0.first?.isNumber == true }),
              let version = PortalVersion(String(word))
        else { return nil }
        return PortalFrontend(path: path, version: version)
    }

    /// The frontend's own portal folder: `DATADIR/xdg-desktop-portal/portals`, DATADIR being the
    /// `share` beside the frontend's `libexec` (or `lib`).
    package var systemPortalFolder: String { systemDataFolder + "/portals" }

    /// `DATADIR/xdg-desktop-portal`, where a distribution's `DESKTOP-portals.conf` lives.
    package var systemDataFolder: String {
        PortalFiles.folder(of: PortalFiles.folder(of: path)) + "/share/xdg-desktop-portal"
    }

    /// Chooses backends with `portals.conf` (else by `UseIn` alone).
    package var readsPortalsConf: Bool { version >= .portalsConf }
    /// Reads portal files from the XDG data folders (else from one folder only).
    package var readsDataDirs: Bool { version >= .dataDirsPortals }
}
