import Testing
import PickerPortalRules
@testable import pickerctl

/// `pickerctl portal`'s reading of the frontend's rules and its edit of `portals.conf`, without files.
@Suite struct PortalRulesTests {
    private func backend(_ name: String, useIn: [String], fileChooser: Bool = true) -> PortalBackend {
        PortalBackend(name: name, path: "/p/\(name).portal", dbusName: "org.x.\(name)",
                      interfaces: fileChooser ? [PortalBackend.fileChooser] : ["org.freedesktop.impl.portal.Screenshot"], useIn: useIn)
    }

    @Test func useInFollowsTheDesktopOrderCaseInsensitiveAndFallsBackToAny() {
        let all = [backend("gtk", useIn: ["gnome"]), backend("pickerd", useIn: ["pickerd"]), backend("kde", useIn: ["KDE"])]
        #expect(FileChooserChoice.byUseIn(all, desktops: ["pickerd", "GNOME"]).backend?.name == "pickerd")
        #expect(FileChooserChoice.byUseIn(all, desktops: ["GNOME", "pickerd"]).backend?.name == "gtk")
        #expect(FileChooserChoice.byUseIn(all, desktops: ["kde"]).backend?.name == "kde")
        // No desktop named: any FileChooser backend, the first by path.
        #expect(FileChooserChoice.byUseIn(all, desktops: ["sway"]).backend?.name == "gtk")
        #expect(FileChooserChoice.byUseIn([backend("wlr", useIn: ["sway"], fileChooser: false)], desktops: ["sway"]).backend == nil)
    }

    @Test func portalsConfNamesTheBackendAndNoneMeansNobody() {
        let all = [backend("gtk", useIn: ["gnome"]), backend("pickerd", useIn: ["pickerd"])]
        let conf = { (text: String) in (path: "/c/portals.conf", keys: KeyFile(text)) }
        #expect(FileChooserChoice.byConfig(all, desktops: ["GNOME"], config: conf("[preferred]\ndefault=gtk\n\(PortalsConf.key)=pickerd;gtk\n")).backend?.name == "pickerd")
        #expect(FileChooserChoice.byConfig(all, desktops: ["GNOME"], config: conf("[preferred]\ndefault=gtk\n")).backend?.name == "gtk")
        #expect(FileChooserChoice.byConfig(all, desktops: ["GNOME"], config: conf("[preferred]\n\(PortalsConf.key)=none\n")).backend == nil)
        #expect(FileChooserChoice.byConfig(all, desktops: ["pickerd"], config: nil).backend?.name == "pickerd")
    }

    @Test func addingIsIdempotentAndRemovingGivesTheTextBack() {
        for original in ["", "[other]\nx=1\n", "# mine\n[preferred]\ndefault=gtk\n",
                         "[preferred]\n\(PortalsConf.key) = gtk;kde\n[other]\ny=2\n"] {
            let added = PortalsConf.adding(to: original)
            #expect(PortalsConf.adding(to: added) == added, "\(original)")
            #expect(PortalsConf.removing(from: added) == original, "\(original)")
            #expect(FileChooserChoice.byConfig([backend("pickerd", useIn: [])], desktops: [], config: ("p", KeyFile(added))).backend?.name == "pickerd")
        }
        let replaced = PortalsConf.adding(to: "[preferred]\n\(PortalsConf.key) = gtk;kde\n")
        #expect(KeyFile(replaced).list("preferred", PortalsConf.key) == ["pickerd", "gtk", "kde"], "\(replaced)")
        // A user who already put pickerd first: nothing to add, nothing to undo.
        let theirs = "[preferred]\n\(PortalsConf.key)=pickerd\n"
        #expect(PortalsConf.adding(to: theirs) == theirs)
    }

    @Test func versionsCompareByNumberAndPickTheRoute() {
        #expect(PortalVersion("1.16.0")! < PortalVersion.portalsConf)
        #expect(PortalVersion("1.18.4")! >= .portalsConf && PortalVersion("1.18.4")! < .dataDirsPortals)
        #expect(PortalVersion("1.20.1")! >= .dataDirsPortals && PortalVersion("1.9")! < PortalVersion("1.16")!)
        #expect(PortalVersion("one") == nil)
    }
}
