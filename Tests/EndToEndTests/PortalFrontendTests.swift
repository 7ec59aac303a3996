import Foundation
import Testing

/// Debian 12's real frontend (`/usr/libexec/xdg-desktop-portal` 1.16) in front of pickerd-portal on a
/// private bus: an app's `org.freedesktop.portal.FileChooser.OpenFile` reaches pickerd, and the answer
/// comes back as the `Response` signal on the app's Request object (read by the requester, which
/// stays connected: the frontend closes a request whose caller leaves).
@Suite(.timeLimit(.minutes(15)),
       .enabled(if: PortalHarness.available && FileManager.default.isExecutableFile(atPath: PortalHarness.frontend),
                "needs xdg-desktop-portal, dbus-daemon, tmux and python3-dbus (scripts/install-deps.sh installs them)"))
struct PortalFrontendTests {
    let library: PortalLibrary

    init() async throws {
        library = try await PortalLibrary(kyoto: ["a.jpg", "c.png"])
    }

    private var kyoto: String { library.kyoto }

    @Test func anAppsOpenFileThroughTheFrontendGetsTheResponseSignal() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        // The frontend 1.16 forwards no current_folder: pick opens on All Photos, the album list focused.
        let client = try portal.openFile(["--frontend", "--multiple", "--filter", "PNG=0:*.png"])
        try await portal.waitForPick(showing: "Upload photo (PNG)")
        // All Photos lists newest first: move down the photo list until c.png (PNG) is current.
        try await portal.press("Tab")
        var header = ""
        try await waitUntil("c.png to be current", within: 60, seen: { header }) {
            header = try await portal.screen().split(separator: "\n").first.map(String.init) ?? ""
            if header.contains("bytes, PNG") { return true }
            try await portal.press("j")
            await pause(300_000)
            return false
        }
        try await portal.press("Space", thenShowing: "1 of 1000 picked")
        try await portal.press("Enter")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\nfrontend:\n\(portal.frontendLog.suffix(2000))")
        let results = answer["results"] as? [String: Any] ?? [:]
        #expect(results["uris"] as? [String] == [library.uri("c.png")], "\(answer)")
        #expect(String(describing: results["current_filter"] ?? "").contains("*.png"), "\(answer)")
    }

    /// Through the real frontend, a check box and a list: pick shows them in its status row, `1` ticks the
    /// check box, a `pickerctl set-choice` from outside is followed on screen, `2` moves the list on, and the
    /// app's Response carries those values, not the initial ones.
    @Test func choicesChangedInPickAndByPickerctlComeBackInTheResponse() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        let client = try portal.openFile(["--frontend", "--choice", "resize=Resize=false",
                                          "--choice", "format=Format=jpeg=jpeg:JPEG,png:PNG,webp:WebP"])
        try await portal.waitForPick(showing: "1 [ ] Resize  2 Format: JPEG")
        try await portal.press("1", thenShowing: "1 [x] Resize")
        let sessions = try await daemon.ctl("session", "list").stdoutText
        let session = try #require(sessions.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix("portal-") },
                                   "the request's session in: \(sessions)")
        let set = try await daemon.ctl(args: ["set-choice", "format", "png"], session: session)
        #expect(set.exitCode == 0, "\(set)")
        try await portal.waitForPick(showing: "2 Format: PNG")
        try await portal.press("2", thenShowing: "2 Format: WebP")
        // A single pick (no `multiple`): Space on the current photo accepts it.
        try await portal.press("Tab", "Space")
        let answer = try await client.answer()
        #expect(answer["response"] as? Int == 0, "\(answer)\nfrontend:\n\(portal.frontendLog.suffix(2000))")
        let results = answer["results"] as? [String: Any] ?? [:]
        #expect(results["choices"] as? [[String]] == [["resize", "true"], ["format", "webp"]], "\(answer)")
    }

    @Test func theAppsCloseReachesPickerdPortalAndEndsThePick() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        let trigger = portal.directory.appendingPathComponent("close-now")
        let client = try portal.openFile(["--frontend", "--close-when", trigger.path])
        try await portal.waitForPick()
        try Data().write(to: trigger)
        #expect(try await client.answer()["closed"] as? Bool == true)
        try await waitUntil("the pick window to close", within: 60, seen: { portal.portalLog }) { try await portal.windowCount() == 1 }
        try await waitUntil("pickerd-portal to answer the closed request", within: 60, seen: { portal.portalLog }) {
            portal.portalLog.contains("answered 2")
        }
        #expect(try await !daemon.ctl("session", "list").stdoutText.contains("portal-"))
    }

    /// A real GTK app: `GTK_USE_PORTAL=1 zenity --file-selection --multiple` on Xvfb asks the frontend,
    /// which asks pickerd-portal; the two photos picked in tmux are what zenity prints.
    @Test(.enabled(if: findExecutable("zenity") != nil && findExecutable("Xvfb") != nil, "needs zenity and Xvfb"))
    func zenityThroughThePortalPrintsThePickedPaths() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let portal = try await PortalHarness(daemon: daemon)
        try await portal.startFrontend()
        let x = try await XServer(directory: portal.directory)
        defer { x.stop() }
        var env = portal.environment
        env["DISPLAY"] = x.display
        env["GTK_USE_PORTAL"] = "1"
        let out = portal.directory.appendingPathComponent("zenity.out")
        let zenity = try spawnProcess(findExecutable("zenity") ?? "zenity", ["--file-selection", "--multiple"], environment: env,
                                      stdin: "/dev/null", stdout: out.path, stderr: portal.directory.appendingPathComponent("zenity.err").path)
        var ended: Int32?
        defer { if isRunning(zenity, exitCode: &ended) { kill(zenity, SIGKILL); _ = waitForExit(zenity) } }
        try await portal.waitForPick()
        try await portal.press("Tab")
        try await portal.press("Space", thenShowing: "1 of 1000 picked")
        try await portal.press("j")
        try await portal.press("Space", thenShowing: "2 of 1000 picked")
        try await portal.press("Enter")
        try await waitUntil("zenity to end", within: 60, seen: { portal.portalLog }) { !isRunning(zenity, exitCode: &ended) }
        #expect(ended == 0)
        let printed = ((try? String(contentsOf: out, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        // zenity joins with '|' (and lists a multiple selection in its own order, reversed).
        #expect(Set(printed.split(separator: "|").map(String.init)) == [kyoto + "/a.jpg", kyoto + "/c.png"], "zenity printed: \(printed)")
    }
}
