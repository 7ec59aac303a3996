import Foundation
import Testing

/// Issue 24 items 2 and 3, in tmux: pick leaves a host's session as the user left it (its pane size
/// back), and opens where the user is (`--album`/`--photo`, the session's album and photo, the album
/// last used with the session name, else the first album), always with a photo current.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickOpeningTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(source.appendingPathComponent("Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        try library.add(source.appendingPathComponent("Landscape_3.jpg"), album: "Kyoto", as: "b.jpg")
        try library.add(source.appendingPathComponent("Landscape_6.jpg"), album: "Kyoto", as: "c.jpg")
        try library.add(source.appendingPathComponent("Landscape_8.jpg"), album: "Home", as: "d.jpg")
    }

    private func status(_ daemon: LiveDaemon, _ session: String) async throws -> [String: Any] {
        let r = try await daemon.ctl("session", "show", session, "--json")
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    /// pick's memory of albums, shared by the picks of one test (each PickTmux has its own HOME);
    /// in the daemon's folder, so it goes when the daemon stops.
    private func state(_ daemon: LiveDaemon) -> URL { daemon.directory.appendingPathComponent("state") }

    private func pick(_ daemon: LiveDaemon, _ arguments: String...) async throws -> PickTmux {
        try await PickTmux(daemon: daemon, arguments: arguments + ["--graphics", "none"], environment: ["XDG_STATE_HOME": state(daemon).path])
    }

    /// Before: the pane stayed at pick's size (1904x1472 in the issue) after `q`.
    @Test func aHostsSessionGetsItsPaneSizeBackWhenPickEnds() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "host", "--width", "600", "--height", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "host").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "a.jpg", session: "host").exitCode == 0)
        let pick = try await pick(daemon, "--session", "host")
        let during = try await status(daemon, "host")
        #expect(during["width"] as? Int != 600 || during["height"] as? Int != 400, "pick sizes the pane to its own while it runs: \(during)")
        try await pick.press("j")
        try await pick.waitFor("b.jpg current") { _ in try await status(daemon, "host")["photo"] as? String == "b.jpg" }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
        let after = try await status(daemon, "host")
        #expect(after["width"] as? Int == 600 && after["height"] as? Int == 400, "the host's pane size is back: \(after)")
        // What the user did stays: the photo moved to.
        #expect(after["photo"] as? String == "b.jpg", "\(after)")
        // q finished the session as cancelled, after the pane size came back (a change after the
        // finish would have opened the session again): a second finish is refused.
        let again = try await daemon.ctl("cancel", session: "host")
        #expect(again.exitCode != 0 && again.stderr.contains("already cancelled"), "\(again)")
    }

    /// Another client finishing the session pick serves ends pick with that answer: the portal's
    /// terminal closes when Neovim or `pickerctl accept` answered the app. Before: pick stayed open.
    @Test func anotherClientsAcceptEndsThePickWithTheSessionsPicks() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "host", "--width", "600").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "host").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "a.jpg", session: "host").exitCode == 0)
        let pick = try await pick(daemon, "--session", "host")
        #expect(try await daemon.ctl("toggle", "c.jpg", session: "host").exitCode == 0)
        #expect(try await daemon.ctl("accept", session: "host").exitCode == 0)
        let end = try await pick.waitForExit()
        let printed = String(decoding: end.stdout, as: UTF8.self)
        #expect(end.code == 0 && printed == library.url.appendingPathComponent("Kyoto/c.jpg").path + "\n", "exit \(end.code): \(printed)")
    }

    @Test func anotherClientsCancelEndsThePickAsCancelled() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "host", "--width", "600").exitCode == 0)
        let pick = try await pick(daemon, "--session", "host")
        #expect(try await daemon.ctl("cancel", session: "host").exitCode == 0)
        let end = try await pick.waitForExit()
        #expect(end.code == 3 && end.stdout.isEmpty, "exit \(end.code): \(String(decoding: end.stdout, as: UTF8.self))")
    }

    /// A session pick creates (none named) opens on the first album with its first photo current.
    /// Before: no album, no photo, two thirds of the screen empty.
    @Test func aNewSessionOpensOnTheFirstAlbumWithAPhotoCurrent() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await pick(daemon, "--session", "fresh")
        let s = try await status(daemon, "fresh")
        #expect(s["album"] as? String == "All Photos" && s["photo"] as? String != nil, "\(s)")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    /// A session with an album but no photo gets the album's first photo.
    @Test func aSessionsAlbumWithoutAPhotoGetsItsFirstPhoto() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "s", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "s").exitCode == 0)
        let pick = try await pick(daemon, "--session", "s")
        let s = try await status(daemon, "s")
        #expect(s["album"] as? String == "Kyoto" && s["photo"] as? String == "a.jpg", "\(s)")
        try await pick.waitFor("a.jpg in the photo list") { $0.contains("a.jpg") && $0.contains("c.jpg") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func albumAndPhotoOptionsOpenThere() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await pick(daemon, "--session", "o", "--album", "Kyoto", "--photo", "c.jpg")
        let s = try await status(daemon, "o")
        #expect(s["album"] as? String == "Kyoto" && s["photo"] as? String == "c.jpg", "\(s)")
        // The photo list has the focus: Enter accepts the current photo.
        try await pick.press("Enter")
        let end = try await pick.waitForExit()
        #expect(end.code == 0)
        #expect(String(decoding: end.stdout, as: UTF8.self).hasSuffix("Kyoto/c.jpg\n"), "\(String(decoding: end.stdout, as: UTF8.self))")
    }

    @Test func anUnknownAlbumIsNamedAndExits4() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "u", "--graphics", "none", "--album", "Nowhere"],
                                environment: ["XDG_STATE_HOME": state(daemon).path], waitForDrawing: false)
        await #expect(try pick.waitForExit().code == 4)
    }

    /// pick closes the session it made; the next pick with that session name opens on the album last used.
    @Test func theNextPickOpensOnTheAlbumLastUsedWithTheSessionName() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let first = try await pick(daemon, "--session", "again")
        try await first.press("j", "j", "Enter")  // the album list has the focus: Kyoto, the third album
        try await first.waitFor("Kyoto open") { _ in try await status(daemon, "again")["album"] as? String == "Kyoto" }
        try await first.press("q")
        await #expect(try first.waitForExit().code == 3)
        #expect(try await daemon.ctl("session", "show", "again").exitCode == 4, "pick closed the session it made")

        let second = try await pick(daemon, "--session", "again")
        let s = try await status(daemon, "again")
        #expect(s["album"] as? String == "Kyoto" && s["photo"] as? String == "a.jpg", "\(s)")
        try await second.press("q")
        await #expect(try second.waitForExit().code == 3)
        // Another session name has its own memory.
        let other = try await pick(daemon, "--session", "elsewhere")
        await #expect(try status(daemon, "elsewhere")["album"] as? String == "All Photos")
        try await other.press("q")
        _ = try await other.waitForExit()
    }

    /// pickerd closes a connection idle for --idle-timeout; pick makes its next call on a new one.
    /// Before: "connection to pickerd lost; send: Broken pipe" and the key did nothing.
    @Test func aKeyAfterTheDaemonClosedTheIdleConnectionStillWorks() async throws {
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--idle-timeout", "1"])
        #expect(try await daemon.ctl("session", "new", "idle", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "idle").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "a.jpg", session: "idle").exitCode == 0)
        let pick = try await pick(daemon, "--session", "idle")
        sleep(4)
        try await pick.press("j")
        try await pick.waitFor("b.jpg current") { _ in try await status(daemon, "idle")["photo"] as? String == "b.jpg" }
        await #expect(try !pick.screen().contains("connection to pickerd lost"))
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
