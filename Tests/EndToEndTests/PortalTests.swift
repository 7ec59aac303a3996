import Foundation
import Testing

/// pickerd-portal as xdg-desktop-portal's FileChooser backend, called over a private session bus
/// (a real dbus-daemon) as the frontend calls it, serving a live pickerd; the pick it opens runs in
/// tmux and is driven by keys. What comes back is the D-Bus reply: response code, URIs, filter.
@Suite(.timeLimit(.minutes(15)),
       .enabled(if: PortalHarness.available, "needs dbus-daemon, tmux and python3-dbus (scripts/install-deps.sh installs them)"))
struct PortalTests {
    let library: PortalLibrary

    init() async throws {
        library = try await PortalLibrary(home: true)
    }

    private var kyoto: String { library.kyoto }

    private func sessions(_ daemon: LiveDaemon) async throws -> String {
        try await daemon.ctl("session", "list").stdoutText
    }

    @Test func openFileReturnsThePicksAsFileURIsInPickOrder() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let client = try portal.openFile(["--multiple", "--current-folder", kyoto, "--title", "Upload photo"])
        let screen = try await portal.waitForPick(showing: "c.png")
        #expect(screen.hasPrefix("Upload photo"), "the session's title is the dialog's: \(screen)")
        #expect(try await sessions(daemon).contains("portal-org.example.App"))
        // The photo list of Kyoto has the focus: c.png picked first, then a.jpg; Enter accepts.
        try await portal.press("End", thenShowing: "bytes, PNG")
        try await portal.press("Space", thenShowing: "1 of 1000 picked")
        try await portal.press("Home", thenShowing: "B, JPEG")
        try await portal.press("Space", thenShowing: "2 of 1000 picked")
        try await portal.press("Enter")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\n\(portal.portalLog)")
        let results = answer["results"] as? [String: Any] ?? [:]
        #expect(results["uris"] as? [String] == [library.uri("c.png"), library.uri("a.jpg")], "\(answer)")
        try await waitUntil("the request's session to be closed", within: 60) { try await !sessions(daemon).contains("portal-") }
        #expect(portal.portalIsAlive)
    }

    @Test func closeWhileThePickIsOpenAnswersTheCallAndEndsThePick() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let trigger = portal.directory.appendingPathComponent("close-now")
        let client = try portal.openFile(["--close-when", trigger.path])
        try await portal.waitForPick()
        #expect(try await portal.windowCount() == 2)
        try Data().write(to: trigger)
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 2, "Close ends the call another way: \(answer)")
        try await waitUntil("the pick window to close", within: 60, seen: { portal.portalLog }) { try await portal.windowCount() == 1 }
        #expect(try await !sessions(daemon).contains("portal-"))
        // The Request object is gone with the request.
        let again = try await portal.gdbus(["call", "--session", "--dest", "org.freedesktop.impl.portal.desktop.pickerd",
                                            "--object-path", "/org/freedesktop/portal/desktop/request/1_1/t1",
                                            "--method", "org.freedesktop.impl.portal.Request.Close"])
        #expect(again.exitCode != 0, "\(again)")
    }

    @Test func escapeInThePickIsACancel() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let client = try portal.openFile([])
        try await portal.waitForPick()
        try await portal.press("Escape")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 1, "\(answer)")
        #expect((answer["results"] as? [String: Any])?["uris"] == nil)
        try await waitUntil("the request's session to be closed", within: 60) { try await !sessions(daemon).contains("portal-") }
    }

    /// The wrapper's HUP trap reports 129 (a cancel) once pick ends: pick ends when its terminal is
    /// gone (end of file or EIO on the tty; before, it polled the hung-up tty and redrew forever).
    @Test
    func closingThePickWindowIsACancel() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let client = try portal.openFile([])
        try await portal.waitForPick()
        try await portal.closePickWindow()
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 1, "\(answer)\n\(portal.portalLog)")
        try await waitUntil("the request's session to be closed", within: 60) { try await !sessions(daemon).contains("portal-") }
    }

    /// The session is named after the app, and pick remembers the last album per session name.
    @Test func theAppsNextPickOpensOnTheAlbumItLastUsed() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let first = try portal.openFile(["--current-folder", kyoto])
        try await portal.waitForPick(showing: "c.png")
        try await portal.press("Escape")
        #expect(try await first.answer()["response"] as? Int == 1)
        let second = try portal.openFile(["--handle", "/org/freedesktop/portal/desktop/request/1_1/t2"])
        let screen = try await portal.waitForPick(showing: "▸Kyoto")
        #expect(screen.contains("c.png"), "\(screen)")
        try await portal.press("Escape")
        #expect(try await second.answer()["response"] as? Int == 1)
    }

    @Test func aPNGFilterIsNamedInTheTitleAndOnlyPNGsAreOffered() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        // Chromium's shape: globs only, each in both cases.
        let client = try portal.openFile(["--multiple", "--current-folder", kyoto, "--filter", "PNG=0:*.png,0:*.PNG",
                                          "--choice", "resize=Resize"])
        let screen = try await portal.waitForPick(showing: "c.png")
        #expect(screen.hasPrefix("Upload photo (PNG)"), "\(screen)")
        #expect(!screen.contains("a.jpg") && !screen.contains("b.jpg"), "only the PNG is offered: \(screen)")
        // The session is the filter: every client of it is shown the PNG alone.
        let listed = try await daemon.ctl("photos", session: "portal-org.example.App")
        #expect(listed.exitCode == 0 && listed.stdoutText.contains("c.png") && !listed.stdoutText.contains(".jpg"), "\(listed)")
        await #expect(try daemon.ctl("select-photo", "a.jpg", session: "portal-org.example.App").exitCode == 4)
        try await portal.press("Space", thenShowing: "1 of 1000 picked")
        try await portal.press("Enter")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)")
        let results = answer["results"] as? [String: Any] ?? [:]
        #expect(results["uris"] as? [String] == [library.uri("c.png")], "\(answer)")
        #expect(String(describing: results["current_filter"] ?? "") .contains("*.PNG"), "\(answer)")
        #expect(String(describing: results["choices"] ?? "").contains("resize"), "\(answer)")
    }

    @Test func aMIMETypeFilterOffersThePhotosOfThatTypeInAnyCase() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let client = try portal.openFile(["--current-folder", kyoto, "--filter", "JPEG=1:image/jpeg"])
        let screen = try await portal.waitForPick(showing: "a.jpg")
        #expect(screen.contains("b.jpg") && !screen.contains("c.png"), "only the JPEGs are offered: \(screen)")
        try await portal.press("Escape")
        #expect(try await client.answer()["response"] as? Int == 1)
    }

    @Test func wrongTypedOptionsAreAnErrorAndTheServiceGoesOn() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        let bad = try await portal.openFile(["--bad-multiple"]).answer()
        #expect(bad["error"] as? String == "org.freedesktop.DBus.Error.InvalidArgs", "\(bad)")
        #expect((bad["message"] as? String ?? "").contains("multiple"), "\(bad)")
        let wrongShape = try await portal.gdbus(["call", "--session", "--dest", "org.freedesktop.impl.portal.desktop.pickerd",
                                                 "--object-path", "/org/freedesktop/portal/desktop",
                                                 "--method", "org.freedesktop.impl.portal.FileChooser.OpenFile", "/x", "app", ""])
        #expect(wrongShape.exitCode != 0 && wrongShape.stderr.contains("InvalidArgs"), "\(wrongShape)")
        // Not a photo pick: answered 2 at once, no window opened.
        let text = try await portal.openFile(["--filter", "Text=1:text/plain"]).answer()
        #expect(text["response"] as? Int == 2, "\(text)")
        #expect(try await portal.windowCount() == 1)
        #expect(portal.portalIsAlive)
        let version = try await portal.gdbus(["call", "--session", "--dest", "org.freedesktop.impl.portal.desktop.pickerd",
                                              "--object-path", "/org/freedesktop/portal/desktop", "--method", "org.freedesktop.DBus.Properties.Get",
                                              "org.freedesktop.impl.portal.FileChooser", "version"])
        #expect(version.stdoutText.contains("uint32 3"), "\(version)")
    }
}
