import Foundation
import Testing

/// `pickerctl portal setup|doctor|remove` in a home of its own: the files each route writes, doctor's
/// verdict and exit codes, an exact undo, and — the proof — Debian 12's real frontend started only
/// the way the written drop-in starts it asks pickerd-portal for FileChooser.
@Suite(.timeLimit(.minutes(10)))
struct PortalSetupTests {
    /// Debian 12's frontend is here (the drop-in route).
    static let frontend116: Bool = {
        guard FileManager.default.isExecutableFile(atPath: PortalHarness.frontend),
              let r = try? runProcessBlocking(PortalHarness.frontend, ["--version"]) else { return false }
        return r.stdoutText.contains(" 1.16.")
    }()

    @Test(.enabled(if: frontend116, "needs xdg-desktop-portal 1.16 (Debian 12)"))
    func onPortal116SetupWritesTheDropInAndRemoveLeavesNothing() async throws {
        let home = try PortalSetupHome()
        defer { home.remove() }
        let before = try await home.ctl(["portal", "doctor"])
        #expect(before.exitCode == 1 && before.stderr.contains("pickerctl portal setup"), "\(before)")
        let dry = try await home.ctl(["portal", "setup", "--dry-run"])
        #expect(dry.exitCode == 0 && dry.stdoutText.contains("would write") && dry.stdoutText.contains("pickerd.conf"), "\(dry)")
        #expect(home.tree().isEmpty, "--dry-run wrote \(home.tree())")

        let setup = try await home.ctl(["portal", "setup"])
        #expect(setup.exitCode == 0, "\(setup)")
        let dropIn = home.read(home.dropIn)
        #expect(setup.stdoutText.contains("wrote        " + home.dropIn.path) && setup.stdoutText.contains("pickerctl portal remove"), "\(setup)")
        #expect(dropIn.contains("Environment=XDG_DESKTOP_PORTAL_DIR=" + home.userPortals.path), "\(dropIn)")
        #expect(dropIn.contains("ExecStart=\n") && dropIn.contains("XDG_CURRENT_DESKTOP=\"pickerd$${XDG_CURRENT_DESKTOP:+:$$XDG_CURRENT_DESKTOP}\""), "\(dropIn)")
        // pickerd.portal as contrib/ has it (make install's copy), plus setup's header line.
        let portal = home.read(home.userPortals.appendingPathComponent("pickerd.portal"))
        let contrib = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("contrib/portal/pickerd.portal"), encoding: .utf8)
        let keys = { (text: String) in text.split(separator: "\n").filter { $0.contains("=") && !$0.hasPrefix("#") } }
        #expect(keys(portal) == keys(contrib), "\(portal)")
        let service = home.read(home.data.appendingPathComponent("dbus-1/services/org.freedesktop.impl.portal.desktop.pickerd.service"))
        #expect(service.contains("Exec=/") && service.contains("pickerd-portal"), "\(service)")

        // Twice is once: nothing rewritten, the same bytes.
        let tree = home.tree()
        let again = try await home.ctl(["portal", "setup"])
        #expect(again.exitCode == 0 && again.stdoutText.contains("already set up") && !again.stdoutText.contains("wrote"), "\(again)")
        #expect(home.tree() == tree && home.read(home.dropIn) == dropIn)

        // Doctor, daemon down: pickerd is chosen, exit 5 says start the daemon.
        let doctor = try await home.ctl(["portal", "doctor"])
        #expect(doctor.exitCode == 5, "\(doctor)")
        #expect(doctor.stdoutText.contains("FileChooser:    pickerd (") && doctor.stdoutText.contains("desktops:       pickerd\n"), "\(doctor)")
        // No other FileChooser backend on this machine's 1.16 folder: saving has nowhere to go, and doctor says so.
        #expect(doctor.stdoutText.contains("saving:         nowhere") && doctor.stdoutText.contains("xdg-desktop-portal-gtk"), "\(doctor)")

        let remove = try await home.ctl(["portal", "remove"])
        #expect(remove.exitCode == 0 && remove.stdoutText.contains("removed      " + home.dropIn.path), "\(remove)")
        #expect(home.tree().isEmpty, "left behind: \(home.tree())")
        let twice = try await home.ctl(["portal", "remove"])
        #expect(twice.exitCode == 0 && twice.stdoutText.contains("nothing to remove"), "\(twice)")
    }

    @Test(.enabled(if: frontend116, "needs xdg-desktop-portal 1.16 (Debian 12)"))
    func aDropInOfTheUsersOwnIsNeverOverwritten() async throws {
        let home = try PortalSetupHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.dropIn.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[Service]\nEnvironment=MINE=1\n".write(to: home.dropIn, atomically: true, encoding: .utf8)
        let setup = try await home.ctl(["portal", "setup"])
        #expect(setup.exitCode == 1 && setup.stderr.contains("not written by pickerctl portal setup"), "\(setup)")
        #expect(home.read(home.dropIn) == "[Service]\nEnvironment=MINE=1\n")
        #expect(try await home.ctl(["portal", "remove"]).stdoutText.contains("nothing to remove"))
        #expect(home.read(home.dropIn) == "[Service]\nEnvironment=MINE=1\n")
    }

    /// Portal 1.18 (a stand-in frontend that says so): the user's portals.conf gets the one line, keeps
    /// every other, and remove gives back the very bytes; the system's portal files are linked beside
    /// pickerd.portal (1.18 reads one folder) and unlinked again.
    @Test func onPortal118AnExistingPortalsConfKeepsItsLinesAndRemoveRestoresIt() async throws {
        let home = try PortalSetupHome()
        defer { home.remove() }
        let fake = try home.fakeFrontend(version: "1.18.4", portals: ["gtk": "gnome"])
        let conf = home.config.appendingPathComponent("xdg-desktop-portal/portals.conf")
        try FileManager.default.createDirectory(at: conf.deletingLastPathComponent(), withIntermediateDirectories: true)
        let mine = "# my portals\n[preferred]\ndefault=gtk\norg.freedesktop.impl.portal.FileChooser=gtk\norg.freedesktop.impl.portal.Secret=gnome-keyring\n"
        try mine.write(to: conf, atomically: true, encoding: .utf8)
        let env = ["PICKERD_PORTAL_FRONTEND": fake, "XDG_CURRENT_DESKTOP": "GNOME"]
        let before = try await home.ctl(["portal", "doctor"], env)
        #expect(before.exitCode == 1 && before.stdoutText.contains("FileChooser:    gtk ("), "\(before)")

        let setup = try await home.ctl(["portal", "setup"], env)
        #expect(setup.exitCode == 0 && setup.stdoutText.contains("edited       " + conf.path), "\(setup)")
        let edited = home.read(conf)
        let lines = edited.split(separator: "\n").map(String.init)
        #expect(lines.contains("org.freedesktop.impl.portal.FileChooser=pickerd;gtk"), "\(edited)")
        for kept in ["# my portals", "[preferred]", "default=gtk", "org.freedesktop.impl.portal.Secret=gnome-keyring"] {
            #expect(lines.contains(kept), "lost \(kept): \(edited)")
        }
        let link = home.userPortals.appendingPathComponent("gtk.portal").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link).hasSuffix("fake/share/xdg-desktop-portal/portals/gtk.portal"))
        #expect(home.read(home.dropIn).contains("Environment=XDG_DESKTOP_PORTAL_DIR=" + home.userPortals.path))
        #expect(!home.read(home.dropIn).contains("ExecStart"), "1.18 needs no desktop prefix")
        let again = try await home.ctl(["portal", "setup"], env)
        #expect(again.stdoutText.contains("already set up") && home.read(conf) == edited, "\(again)")

        let doctor = try await home.ctl(["portal", "doctor", "--json"], env)
        #expect(doctor.exitCode == 5, "daemon down: \(doctor)")
        let report = try JSONSerialization.jsonObject(with: doctor.stdout) as? [String: Any] ?? [:]
        #expect(report["file_chooser"] as? String == "pickerd" && report["rules"] as? String == "portals.conf", "\(report)")
        #expect(report["not_linked"] == nil, "\(report)")
        #expect(report["forward"] as? String == "gtk", "saving goes to the backend after pickerd (pickerd;gtk): \(report)")

        // A backend installed after setup: doctor names it, setup again links it.
        try "[portal]\nDBusName=org.x.kde\nInterfaces=org.freedesktop.impl.portal.Screenshot;\nUseIn=KDE\n"
            .write(to: home.directory.appendingPathComponent("fake/share/xdg-desktop-portal/portals/kde.portal"), atomically: true, encoding: .utf8)
        #expect(try await home.ctl(["portal", "doctor"], env).stdoutText.contains("not linked:     kde.portal"))
        #expect(try await home.ctl(["portal", "setup"], env).stdoutText.contains("linked       " + home.userPortals.path + "/kde.portal"))

        let remove = try await home.ctl(["portal", "remove"], env)
        #expect(remove.exitCode == 0, "\(remove)")
        #expect(home.read(conf) == mine, "not restored: \(home.read(conf))")
        #expect(home.tree() == ["config/xdg-desktop-portal", "config/xdg-desktop-portal/portals.conf"], "\(home.tree())")
    }

    /// Portal 1.18 with no portals.conf of the user's: a new `DESKTOP-portals.conf` holding the system's
    /// choices for that desktop plus pickerd for FileChooser; remove deletes it.
    @Test func onPortal118WithNoUserConfigTheDesktopsSystemConfigIsCarriedOver() async throws {
        let home = try PortalSetupHome()
        defer { home.remove() }
        let fake = try home.fakeFrontend(version: "1.18.4", portals: ["gtk": "gnome"])
        try "[preferred]\ndefault=gnome;gtk;\n".write(to: home.directory.appendingPathComponent("fake/share/xdg-desktop-portal/gnome-portals.conf"),
                                                     atomically: true, encoding: .utf8)
        let env = ["PICKERD_PORTAL_FRONTEND": fake, "XDG_CURRENT_DESKTOP": "GNOME"]
        #expect(try await home.ctl(["portal", "setup"], env).exitCode == 0)
        let written = home.read(home.config.appendingPathComponent("xdg-desktop-portal/gnome-portals.conf"))
        #expect(written.contains("default=gnome;gtk;\n") && written.contains("org.freedesktop.impl.portal.FileChooser=pickerd\n"), "\(written)")
        #expect(try await home.ctl(["portal", "doctor"], env).stdoutText.contains("FileChooser:    pickerd ("))
        #expect(try await home.ctl(["portal", "remove"], env).exitCode == 0)
        #expect(home.tree().isEmpty, "\(home.tree())")
    }

    /// The proof: after setup, Debian's frontend started with only what the drop-in gives systemd
    /// (its `Environment=` and its `ExecStart=` command line, the session's desktop GNOME) asks
    /// pickerd-portal for an app's OpenFile; doctor, pointed at that bus, finds the running
    /// frontend, reads its environment, and says pickerd answers (exit 0).
    @Test(.enabled(if: frontend116 && PortalHarness.available, "needs xdg-desktop-portal 1.16, dbus-daemon, tmux and python3-dbus"))
    func theFrontendStartedAsTheDropInSaysAsksPickerd() async throws {
        let home = try PortalSetupHome()
        defer { home.remove() }
        #expect(try await home.ctl(["portal", "setup"]).exitCode == 0)
        let started = home.dropInCommand()
        #expect(started.command.first == "/bin/sh" && started.environment["XDG_DESKTOP_PORTAL_DIR"] == home.userPortals.path, "\(started)")

        let library = try await PortalLibrary(kyoto: ["a.jpg", "c.png"])
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        var env = started.environment
        env["XDG_CURRENT_DESKTOP"] = "GNOME"
        try await portal.startFrontend(setup: (started.command, env))
        let client = try portal.openFile(["--frontend", "--multiple"])
        var session = ""
        try await waitUntil("the request's session", within: 60, seen: { portal.frontendLog.suffix(1500) + "\n" + portal.portalLog }) {
            let list = try await daemon.ctl("session", "list", "--json").stdout
            let sessions = (try? JSONSerialization.jsonObject(with: list) as? [[String: Any]]) ?? []
            session = sessions.compactMap { $0["session"] as? String }.first { $0.hasPrefix("portal-") } ?? ""
            return !session.isEmpty
        }
        for args in [["select-album", "Kyoto"], ["toggle", "c.png"], ["toggle", "a.jpg"], ["accept"]] {
            let r = try await daemon.ctl(args: args, session: session)
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\nfrontend:\n\(portal.frontendLog.suffix(2000))")
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == [library.uri("c.png"), library.uri("a.jpg")], "\(answer)")

        let doctor = try await home.ctl(["--socket", daemon.socketPath, "portal", "doctor"], ["DBUS_SESSION_BUS_ADDRESS": portal.busAddress])
        #expect(doctor.exitCode == 0, "\(doctor)")
        #expect(doctor.stdoutText.contains("running (pid") && doctor.stdoutText.contains("desktops:       pickerd:GNOME")
                && doctor.stdoutText.contains("ok: pickerd answers FileChooser"), "\(doctor)")
    }
}
