import PickerSystem

/// The user's folders as the XDG Base Directory rules give them (relative values are ignored), and
/// the paths `pickerctl portal` writes or looks at.
package struct PortalEnvironment {
    package var variables: [String: String]

    package init(_ variables: [String: String] = Environment.current) { self.variables = variables }

    package subscript(_ name: String) -> String? {
        variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    package var home: String { self["HOME"] ?? "/" }

    private func absolute(_ name: String, default fallback: String) -> String {
        self[name].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? fallback
    }

    private func list(_ name: String, default fallback: [String]) -> [String] {
        let parts = (self[name] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return parts.isEmpty ? fallback : parts
    }

    package var configHome: String { absolute("XDG_CONFIG_HOME", default: home + "/.config") }
    package var dataHome: String { absolute("XDG_DATA_HOME", default: home + "/.local/share") }
    package var configDirs: [String] { list("XDG_CONFIG_DIRS", default: ["/etc/xdg"]) }
    package var dataDirs: [String] { list("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"]) }

    /// `XDG_CURRENT_DESKTOP` as a list ("ubuntu:GNOME" → ["ubuntu", "GNOME"]).
    package var desktops: [String] { (self["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init) }

    // What setup writes.

    /// The systemd user drop-in for the frontend's unit (portal < 1.17, or a user portal folder).
    package var dropInFolder: String { configHome + "/systemd/user/xdg-desktop-portal.service.d" }
    package var dropIn: String { dropInFolder + "/pickerd.conf" }
    /// The portal folder for frontends that read one folder only: pickerd.portal and links to the system's.
    package var userPortalFolder: String { dataHome + "/pickerd/portals" }
    /// Where frontends from 1.20.1 read the user's portal files.
    package var dataHomePortalFolder: String { dataHome + "/xdg-desktop-portal/portals" }
    /// The user's `portals.conf` folder (1.17+).
    package var userConfigFolder: String { configHome + "/xdg-desktop-portal" }

    /// D-Bus activation files of the session bus: `$XDG_DATA_HOME` then `$XDG_DATA_DIRS`, `dbus-1/services`.
    package var dbusServiceFolders: [String] { ([dataHome] + dataDirs).map { $0 + "/dbus-1/services" } }
    package static let dbusServiceName = "org.freedesktop.impl.portal.desktop.pickerd.service"
    package var userDBusService: String { dataHome + "/dbus-1/services/" + Self.dbusServiceName }
}
