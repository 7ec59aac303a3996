#if canImport(Glibc)
import Glibc
#endif
import PickerPortalRules
import PickerSystem

/// The backend a request that is not a photo pick (saving, a folder, filters that pass no photo) is
/// forwarded to: by default the one the frontend would ask for FileChooser without pickerd — its
/// portal files, desktops and rules (`PortalLookup`, the same code as `pickerctl portal doctor`) with
/// pickerd's own backend left out; `forward =` in portal.conf (or `PICKERD_PORTAL_FORWARD`) names one.
struct ForwardTarget: Equatable {
    var dbusName: String
    /// The portal file's name ("gtk"), or the D-Bus name when `forward =` gave one.
    var name: String
    var reason: String

    /// What `forward` says, else the lookup's choice; nil (with the reason) when there is none.
    /// - Parameter forward: nil (the frontend's rules), `none`, a portal file's name, or a D-Bus name.
    static func choose(forward: String?, lookup: PortalLookup) -> (target: ForwardTarget?, reason: String) {
        let place = "portal files in " + lookup.folders.joined(separator: ", ")
        switch forward {
        case "none"?:
            return (nil, "forward = none")
        case let name? where name.contains("."):
            guard name != PortalBus.name else { return (nil, "forward = \(name) is pickerd-portal itself") }
            return (ForwardTarget(dbusName: name, name: name, reason: "forward = \(name)"), "")
        case let name?:
            guard let backend = lookup.backends.first(where: { $0.name == name && $0.implementsFileChooser }) else {
                return (nil, "forward = \(name), but no \(name).portal with FileChooser is among the \(place)")
            }
            return (ForwardTarget(dbusName: backend.dbusName, name: name, reason: "forward = \(name)"), "")
        case nil:
            guard let backend = lookup.result.backend else { return (nil, "no other FileChooser backend among the \(place)") }
            return (ForwardTarget(dbusName: backend.dbusName, name: backend.name, reason: lookup.result.reason), "")
        }
    }

    /// The frontend's view of the backends, pickerd's left out: the caller's own (`/proc/PID`) when the
    /// caller is xdg-desktop-portal (its `XDG_DESKTOP_PORTAL_DIR` and `XDG_CURRENT_DESKTOP`, e.g. as
    /// pickerctl portal setup's drop-in sets them, are not ours when D-Bus started us), else ours.
    static func lookup(callerPID: Int?, own: PortalEnvironment) -> PortalLookup {
        var env = own
        var frontend: PortalFrontend?
        if let pid = callerPID, let exe = executable(of: pid), PortalFiles.name(of: exe).hasPrefix("xdg-desktop-portal"),
           let variables = ProcessEnvironment.read(pid: pid) {
            env = PortalEnvironment(variables)
            frontend = PortalFrontend.detect(PortalEnvironment(["PICKERD_PORTAL_FRONTEND": exe]))
        }
        let found = frontend ?? PortalFrontend.detect(own) ?? PortalFrontend(path: PortalFrontend.knownPaths[0], version: PortalVersion(1, 16, 0))
        return PortalLookup(found, env, excluding: PortalBus.name)
    }

    private static func executable(of pid: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
    }
}
