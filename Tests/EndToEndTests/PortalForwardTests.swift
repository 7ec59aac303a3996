import Foundation
import Testing

/// "What is not a photo pick is not ours": saving, folders and files no photo passes go from
/// pickerd-portal to the desktop's own FileChooser backend — here a stand-in (`fake_chooser.py`, D-Bus
/// activated on the test's bus, its portal file beside pickerd.portal) — and its answer comes back to
/// the app unchanged, through Debian's real frontend (`/usr/libexec/xdg-desktop-portal` 1.16).
@Suite(.timeLimit(.minutes(15)),
       .enabled(if: PortalHarness.available && FileManager.default.isExecutableFile(atPath: PortalHarness.frontend),
                "needs xdg-desktop-portal, dbus-daemon, tmux and python3-dbus (scripts/install-deps.sh installs them)"))
struct PortalForwardTests {
    let library: PortalLibrary

    init() async throws {
        library = try await PortalLibrary(kyoto: ["a.jpg"])
    }

    @Test func anAppsSaveFileGetsTheOtherBackendsAnswer() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let fake = try await portal.installFakeBackend(useIn: "fake")
        try await portal.startFrontend(desktops: "pickerd:fake")
        let client = try portal.openFile(["--frontend", "--method", "SaveFile", "--title", "Save text", "--current-name", "x.txt"])
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\nportal:\n\(portal.portalLog)\nfrontend:\n\(portal.frontendLog.suffix(2000))")
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == ["file:///tmp/x.txt"], "\(answer)")
        let calls = fake.calls
        #expect(calls.count == 1, "\(fake.entries)")
        #expect(calls.first?["method"] as? String == "SaveFile")
        #expect(calls.first?["title"] as? String == "Save text")
        #expect((calls.first?["options"] as? [String: Any])?["current_name"] as? String == "x.txt", "\(calls)")
        // The fake got a request handle of pickerd-portal's own, not the frontend's.
        #expect((calls.first?["handle"] as? String)?.hasPrefix("/org/freedesktop/portal/desktop/request/pickerd_") == true, "\(calls)")
        #expect(portal.portalLog.contains("forwarded to fakegtk (org.freedesktop.impl.portal.desktop.fakegtk)"), "\(portal.portalLog)")
        #expect(portal.portalLog.contains("names \"fake\" of XDG_CURRENT_DESKTOP"), "the frontend's desktops chose it: \(portal.portalLog)")
    }

    @Test func theAppsCloseWhileTheOtherBackendHoldsTheRequestReachesIt() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let fake = try await portal.installFakeBackend(hold: true)
        try await portal.startFrontend()
        let trigger = portal.directory.appendingPathComponent("close-now")
        let client = try portal.openFile(["--frontend", "--method", "SaveFile", "--close-when", trigger.path])
        try await waitUntil("the fake backend to hold the SaveFile", within: 60, seen: { portal.portalLog }) { fake.calls.count == 1 }
        try Data().write(to: trigger)
        #expect(try await client.answer()["closed"] as? Bool == true)
        let handle = fake.calls.first?["handle"] as? String
        try await waitUntil("the fake backend to see the Close of its request", within: 60, seen: { "\(fake.entries)\n\(portal.portalLog)" }) {
            fake.closes == [handle ?? "?"]
        }
        try await waitUntil("pickerd-portal to log the Close", within: 60, seen: { portal.portalLog }) {
            portal.portalLog.contains("Close sent to org.freedesktop.impl.portal.desktop.fakegtk")
        }
        #expect(portal.portalIsAlive)
    }

    @Test func anOpenFileForAFolderIsForwarded() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let fake = try await portal.installFakeBackend()
        try await portal.startFrontend()
        let client = try portal.openFile(["--frontend", "--directory", "--title", "Choose a folder"])
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == ["file:///tmp/folder"], "\(answer)")
        #expect(fake.calls.first?["method"] as? String == "OpenFile")
        #expect((fake.calls.first?["options"] as? [String: Any])?["directory"] as? Bool == true, "\(fake.calls)")
        #expect(try await !daemon.ctl("session", "list").stdoutText.contains("portal-"), "no pickerd session for a folder")
    }

    /// Without the frontend: the caller is not xdg-desktop-portal, so pickerd-portal goes by its own
    /// environment's portal folder. A text filter passes no photo: forwarded.
    @Test func anOpenFileWhoseFiltersPassNoPhotoIsForwarded() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let dir = "/tmp/pkpo-portals-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let portal = try await PortalHarness(daemon: daemon, portalEnvironment: ["XDG_DESKTOP_PORTAL_DIR": dir])
        let fake = try await portal.installFakeBackend()
        try FileManager.default.copyItem(at: portal.portals.appendingPathComponent("fakegtk.portal"),
                                         to: URL(fileURLWithPath: dir).appendingPathComponent("fakegtk.portal"))
        let client = try portal.openFile(["--filter", "Text=1:text/plain,0:*.txt"])
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == ["file:///tmp/folder"], "\(answer)")
        #expect(fake.calls.first?["handle"] as? String != "/org/freedesktop/portal/desktop/request/1_1/t1", "\(fake.calls)")
        #expect(portal.portalLog.contains("no filter passes a photo: Text"), "\(portal.portalLog)")
        // SaveFiles likewise, with the app's handle mapped to one of ours.
        let save = try portal.openFile(["--method", "SaveFiles", "--handle", "/org/freedesktop/portal/desktop/request/1_1/t2"])
        let saved = try await save.answer()
        #expect(saved["response"] as? Int == 0 && (saved["results"] as? [String: Any])?["uris"] as? [String] == ["file:///tmp/x.txt"], "\(saved)")
        #expect(fake.calls.map { $0["method"] as? String } == ["OpenFile", "SaveFiles"], "\(fake.calls)")
    }

    /// dbus-daemon answers a call whose recipient leaves with an error: the app's dialog ends with 2.
    @Test func theOtherBackendGoneWhileItHoldsTheRequestEndsItWith2() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let fake = try await portal.installFakeBackend(hold: true)
        try await portal.startFrontend()
        let client = try portal.openFile(["--frontend", "--method", "SaveFile"])
        try await waitUntil("the fake backend to hold the SaveFile", within: 60, seen: { portal.portalLog }) { fake.calls.count == 1 }
        let owner = try await portal.gdbus(["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                            "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.impl.portal.desktop.fakegtk"])
        let pid = try #require(owner.stdoutText.split(whereSeparator: { !$0.isNumber }).last.flatMap { pid_t($0) }, "\(owner)")
        kill(pid, SIGKILL)
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 2, "\(answer)\n\(portal.portalLog)")
        #expect(portal.portalLog.contains("NoReply"), "\(portal.portalLog)")
        #expect(portal.portalIsAlive)
    }

    /// No other backend and no terminal for pickerd-portal's own prompt (`terminal = none`).
    @Test func withNoOtherBackendSavingEndsWithResponse2AndSaysWhatToInstall() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon, terminal: "none")
        try await portal.startFrontend()
        let client = try portal.openFile(["--frontend", "--method", "SaveFile", "--current-name", "x.txt"])
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 2, "\(answer)")
        #expect(portal.portalLog.contains("no other FileChooser backend"), "\(portal.portalLog)")
        #expect(portal.portalLog.contains("apt install xdg-desktop-portal-gtk"), "\(portal.portalLog)")
        #expect(portal.portalIsAlive)
    }

    // No other backend, a terminal: pickerd-portal's own save prompt in the harness's tmux.

    private func waitForPrompt(_ portal: PortalHarness, showing text: String) async throws {
        var last = ""
        try await waitUntil("the save prompt showing '\(text)'", within: 60, seen: { last + "\nportal log:\n" + portal.portalLog }) {
            last = try await portal.screen()
            return last.contains(text)
        }
    }

    @Test func withNoOtherBackendTheSavePromptSavesUnderTheSuggestedName() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        let client = try portal.openFile(["--frontend", "--method", "SaveFile", "--title", "Save notes", "--current-name", "notes.txt"])
        try await waitForPrompt(portal, showing: "Name [notes.txt]")
        #expect(try await portal.screen().contains("Folder: " + portal.directory.path), "the folder is $HOME")
        try await portal.press("Enter")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == ["file://" + portal.directory.path + "/notes.txt"], "\(answer)")
        #expect(portal.portalLog.contains("own save prompt serves it") && portal.portalLog.contains("xdg-desktop-portal-gtk"), "\(portal.portalLog)")
        try await waitUntil("the prompt's window to close", within: 60, seen: { portal.portalLog }) { try await portal.windowCount() == 1 }
    }

    @Test func theSavePromptAsksBeforeReplacingAndCtrlDCancels() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        try Data("mine".utf8).write(to: portal.directory.appendingPathComponent("notes.txt"))
        let client = try portal.openFile(["--frontend", "--method", "SaveFile", "--current-name", "notes.txt"])
        try await waitForPrompt(portal, showing: "Name [notes.txt]")
        try await portal.press("Enter")
        try await waitForPrompt(portal, showing: "notes.txt exists. Replace it? [y/N]")
        try await portal.press("n", "Enter")
        var last = ""
        try await waitUntil("the name asked again", within: 60, seen: { last }) {
            last = try await portal.screen()
            return last.components(separatedBy: "Name [notes.txt]").count == 3
        }
        try await portal.press("other.txt", "Enter")
        let answer = try await client.answer()
        #expect((answer["results"] as? [String: Any])?["uris"] as? [String] == ["file://" + portal.directory.path + "/other.txt"], "\(answer)")
        #expect(try String(contentsOf: portal.directory.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")

        let again = try portal.openFile(["--frontend", "--method", "SaveFile"])
        try await waitForPrompt(portal, showing: "Name [Untitled]")
        try await portal.press("C-d")
        #expect(try await again.answer()["response"] as? Int == 1)
    }

    @Test func theAppsCloseEndsTheSavePrompt() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        let trigger = portal.directory.appendingPathComponent("close-now")
        let client = try portal.openFile(["--frontend", "--method", "SaveFile", "--close-when", trigger.path])
        try await waitForPrompt(portal, showing: "Name [Untitled]")
        try Data().write(to: trigger)
        #expect(try await client.answer()["closed"] as? Bool == true)
        try await waitUntil("the prompt's window to close", within: 60, seen: { portal.portalLog }) { try await portal.windowCount() == 1 }
        #expect(portal.portalLog.contains("answered 2 (save prompt)"), "\(portal.portalLog)")
    }
}
