import Foundation
import PickerPortalRules
import Testing
@testable import PickerPortal

/// Which backend a request that is not a photo pick goes to: the frontend's rules over its portal
/// files with pickerd's own left out, or what `forward =` says.
@Suite struct ForwardTargetTests {
    /// A portal folder with gtk (UseIn=gnome), kde (UseIn=KDE), wlr (no FileChooser) and pickerd.
    private func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "pkft-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let files = [("gtk", "org.freedesktop.impl.portal.desktop.gtk", "org.freedesktop.impl.portal.FileChooser;", "gnome"),
                     ("kde", "org.freedesktop.impl.portal.desktop.kde", "org.freedesktop.impl.portal.FileChooser;", "KDE"),
                     ("wlr", "org.freedesktop.impl.portal.desktop.wlr", "org.freedesktop.impl.portal.Screenshot;", "sway"),
                     ("pickerd", PortalBus.name, "org.freedesktop.impl.portal.FileChooser;", "pickerd")]
        for (name, bus, interfaces, useIn) in files {
            try "[portal]\nDBusName=\(bus)\nInterfaces=\(interfaces)\nUseIn=\(useIn)\n"
                .write(toFile: "\(dir)/\(name).portal", atomically: true, encoding: .utf8)
        }
        return dir
    }

    private func lookup(_ dir: String, desktops: String) -> PortalLookup {
        PortalLookup(PortalFrontend(path: "/usr/libexec/xdg-desktop-portal", version: PortalVersion(1, 16, 0)),
                     PortalEnvironment(["XDG_DESKTOP_PORTAL_DIR": dir, "XDG_CURRENT_DESKTOP": desktops, "HOME": "/nonexistent"]),
                     excluding: PortalBus.name)
    }

    @Test func theNextBackendByTheDesktopsWithPickerdLeftOut() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(lookup(dir, desktops: "pickerd:KDE").backends.map(\.name) == ["gtk", "kde", "wlr"])
        #expect(ForwardTarget.choose(forward: nil, lookup: lookup(dir, desktops: "pickerd:KDE")).target?.name == "kde")
        #expect(ForwardTarget.choose(forward: nil, lookup: lookup(dir, desktops: "pickerd:GNOME")).target?.dbusName
                    == "org.freedesktop.impl.portal.desktop.gtk")
        // No desktop named: any FileChooser backend but pickerd's, as the frontend falls back.
        #expect(ForwardTarget.choose(forward: nil, lookup: lookup(dir, desktops: "pickerd")).target?.name == "gtk")
    }

    @Test func forwardInPortalConfWins() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let view = lookup(dir, desktops: "pickerd:KDE")
        #expect(ForwardTarget.choose(forward: "gtk", lookup: view).target?.dbusName == "org.freedesktop.impl.portal.desktop.gtk")
        #expect(ForwardTarget.choose(forward: "org.example.Chooser", lookup: view).target?.dbusName == "org.example.Chooser")
        #expect(ForwardTarget.choose(forward: "none", lookup: view).target == nil)
        let missing = ForwardTarget.choose(forward: "gnome", lookup: view)
        #expect(missing.target == nil && missing.reason.contains("no gnome.portal"))
        #expect(ForwardTarget.choose(forward: "wlr", lookup: view).target == nil, "wlr has no FileChooser")
        #expect(ForwardTarget.choose(forward: "pickerd", lookup: view).target == nil)
        #expect(ForwardTarget.choose(forward: PortalBus.name, lookup: view).target == nil)
    }

    @Test func noOtherBackendSaysWhereItLooked() throws {
        let dir = NSTemporaryDirectory() + "pkft-empty-\(UUID().uuidString.prefix(8))"
        let choice = ForwardTarget.choose(forward: nil, lookup: lookup(dir, desktops: "pickerd"))
        #expect(choice.target == nil && choice.reason.contains(dir))
    }

    @Test func forwardIsReadFromPortalConfAndTheEnvironment() {
        let file = PortalConfiguration.resolve(environment: ["PATH": "/nonexistent"], configText: "forward = gtk\n", socket: "/s",
                                               executableDirectory: nil, replace: false)
        #expect(file.forward == "gtk")
        let env = PortalConfiguration.resolve(environment: ["PATH": "/nonexistent", "PICKERD_PORTAL_FORWARD": "none"],
                                              configText: "forward = gtk\n", socket: "/s", executableDirectory: nil, replace: false)
        #expect(env.forward == "none")
    }
}
