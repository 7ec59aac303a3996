import Foundation
import Testing

/// `pickerctl pick` driven in tmux as a user drives it, against a live daemon on a small library:
/// what the screen shows, what the keys do, what reaches stdout, the exit codes, and the terminal
/// handed back as it was on every way out.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickTmuxTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(source.appendingPathComponent("Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        try library.add(source.appendingPathComponent("Landscape_3.jpg"), album: "Kyoto", as: "b.jpg")
        try library.add(source.appendingPathComponent("Landscape_6.jpg"), album: "Kyoto", as: "c.jpg")
        try library.add(source.appendingPathComponent("Landscape_8.jpg"), album: "Home", as: "d.jpg")
    }

    private func absolute(_ relative: String) -> String {
        library.url.appendingPathComponent(relative).resolvingSymlinksInPath().path
    }

    /// A session "pk" with Kyoto open and `photo` current.
    private func sessionInKyoto(_ daemon: LiveDaemon, photo: String? = "b.jpg", title: String = "Photo Library") async throws {
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400", "--title", title).exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Kyoto", session: "pk").exitCode == 0)
        if let photo { await #expect(try daemon.ctl("select-photo", photo, session: "pk").exitCode == 0) }
    }

    private func status(_ daemon: LiveDaemon, _ session: String) async throws -> [String: Any] {
        let r = try await daemon.ctl("session", "show", session, "--json")
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    /// The terminal is back as it was: main screen, cursor shown, nothing of the picker left.
    private func expectRestored(_ pick: PickTmux) async throws {
        await #expect(try pick.paneFormat("#{alternate_on}") == "0")
        await #expect(try pick.paneFormat("#{cursor_flag}") == "1")
        let screen = try await pick.screen()
        #expect(!screen.contains("Space pick") && !screen.contains("Albums"), "screen after exit:\n\(screen)")
    }

    @Test func titleIsTopLeftAndMessageTopRight() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon, title: "Kyoto Trip")
        let message = try await status(daemon, "pk")["message"] as? String ?? ""
        #expect(message.contains("px"), "message: \(message)")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        let header = try await pick.lines()[0]
        #expect(header.hasPrefix("Kyoto Trip"), "header: \(header)")
        #expect(header.trimmingCharacters(in: .whitespaces).hasSuffix(message), "header: \(header)")
        #expect(header.count == 160 || header.trimmingCharacters(in: .whitespaces).count > message.count)
    }

    @Test func albumListShowsAlbumsAndEnterOpensOneWithItsFirstPhotoCurrent() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "fresh", "--graphics", "none"])
        let screen = try await pick.screen()
        for album in ["All Photos (4)", "Home (1)", "Kyoto (3)"] { #expect(screen.contains(album), "\(screen)") }
        #expect(screen.contains("0 of 10 picked"))
        try await pick.press("j", "j", "Enter")
        try await pick.waitFor("Kyoto's photos") { $0.contains("a.jpg") && $0.contains("b.jpg") && $0.contains("c.jpg") }
        // The screen shows the album before the daemon has answered its select (pick never waits).
        try await pick.waitFor("Kyoto and a.jpg to be the session's") { _ in
            let state = try await status(daemon, "fresh")
            return state["album"] as? String == "Kyoto" && state["photo"] as? String == "a.jpg"
        }
        try await pick.press("j")
        try await pick.waitFor("the message of b.jpg") { _ in try await status(daemon, "fresh")["photo"] as? String == "b.jpg" }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
        // pick created the session, so it closes it again.
        await #expect(try daemon.ctl("session", "show", "fresh").exitCode == 4)
    }

    @Test func spacePicksAndEnterPrintsThePickedAbsolutePathsInOrder() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "keys", "--graphics", "none"])
        try await pick.press("j", "j", "Enter")
        try await pick.waitFor("Kyoto's photos") { $0.contains("c.jpg") }
        try await pick.press("j", "j", "Space")
        try await pick.waitFor("c.jpg picked first") { $0.contains("✓1  c.jpg") && $0.contains("1 of 10 picked") }
        try await pick.press("k", "k", "Space")
        try await pick.waitFor("a.jpg picked second") { $0.contains("✓2  a.jpg") && $0.contains("2 of 10 picked") }
        try await pick.press("Enter")
        let result = try await pick.waitForExit()
        #expect(result.code == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == absolute("Kyoto/c.jpg") + "\n" + absolute("Kyoto/a.jpg") + "\n")
        try await expectRestored(pick)
    }

    @Test func enterWithNoPicksAcceptsTheCurrentPhotoAndMinus0SeparatesWithNUL() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon, photo: "b.jpg")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none", "-0"])
        try await pick.press("Enter")
        let result = try await pick.waitForExit()
        #expect(result.code == 0)
        #expect(Array(result.stdout) == Array((absolute("Kyoto/b.jpg")).utf8) + [0])
        // An existing session is left open, with its album and photo.
        await #expect(try status(daemon, "pk")["photo"] as? String == "b.jpg")
    }

    @Test func slashFiltersThePhotoListAsYouTypeAndMakesTheMatchCurrent() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try await pick.press("/")
        try await pick.type("c")
        let screen = try await pick.waitFor("only c.jpg listed") { $0.contains("c.jpg") && !$0.contains("a.jpg") && !$0.contains("b.jpg") }
        #expect(screen.contains("Photos /c"))
        try await pick.waitFor("c.jpg current") { _ in try await status(daemon, "pk")["photo"] as? String == "c.jpg" }
        try await pick.press("Escape")
        try await pick.waitFor("the filter cleared") { $0.contains("a.jpg") && $0.contains("b.jpg") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test(arguments: ["q", "Escape", "C-c"])
    func cancelPrintsNothingExits3AndRestoresTheTerminal(key: String) async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon)
        await #expect(try daemon.ctl("toggle", "a.jpg", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        await #expect(try pick.paneFormat("#{alternate_on}") == "1")
        await #expect(try pick.paneFormat("#{cursor_flag}") == "0")
        try await pick.press(key)
        let result = try await pick.waitForExit()
        #expect(result.code == 3)
        #expect(result.stdout.isEmpty)
        try await expectRestored(pick)
    }

    @Test func resizingTheWindowResizesTheSessionPane() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        let before = try await status(daemon, "pk")
        let width = before["width"] as? Int ?? 0, height = before["height"] as? Int ?? 0
        #expect(width != 400 && width > 0 && height > 0, "the session is sized to the terminal: \(before)")
        try await pick.resize(columns: 100, rows: 30)
        try await pick.waitFor("a smaller pane") { _ in
            let after = try await status(daemon, "pk")
            return (after["width"] as? Int ?? 0) < width && (after["height"] as? Int ?? 0) < height
        }
        try await pick.waitFor("the redrawn help row") { $0.split(separator: "\n").contains { $0.hasPrefix("↑↓ jk move") } }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func anotherClientTogglingTheSessionShowsAtOnce() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        await #expect(try daemon.ctl("toggle", "c.jpg", session: "pk").exitCode == 0)
        try await pick.waitFor("c.jpg picked by pickerctl toggle") { $0.contains("✓1  c.jpg") && $0.contains("1 of 10 picked") }
        await #expect(try daemon.ctl("select-photo", "a.jpg", session: "pk").exitCode == 0)
        try await pick.waitFor("a.jpg current in the header") { $0.split(separator: "\n").dropFirst().first?.contains("a.jpg") == true }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func pOpensTheFullScreenPreviewEscReturnsAndGShowsTheGrid() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try await pick.press("p")
        let preview = try await pick.waitFor("the preview") { $0.contains(PickKeys.previewHelp) }
        #expect(!preview.contains("Albums") && !preview.contains("a.jpg"), "the lists make way:\n\(preview)")
        try await pick.press("Escape")
        try await pick.waitFor("the panes back") { $0.contains("Albums") && $0.contains("a.jpg") && !$0.contains(PickKeys.previewHelp) }
        try await pick.press("g")
        try await pick.waitFor("the grid heading") { $0.split(separator: "\n").dropFirst().first?.contains("Grid") == true }
        try await pick.press("Space")
        try await pick.waitFor("the pick numbered in the grid") { $0.contains("✓1 b.jpg") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func jsonPrintsTheSelectionAsSelectionJsonDoes() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none", "--json"])
        try await pick.press("Space")
        try await pick.waitFor("a.jpg picked") { $0.contains("✓1  a.jpg") }
        try await pick.press("Enter")
        let result = try await pick.waitForExit()
        #expect(result.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let expected = try await #require(try JSONSerialization.jsonObject(with: try daemon.ctl("selection", "--json", session: "pk").stdout) as? [String: Any])
        #expect(json["count"] as? Int == 1 && json["max_selection"] as? Int == 10)
        let photos = json["photos"] as? [[String: Any]] ?? []
        #expect(photos.first?["absolute_path"] as? String == absolute("Kyoto/a.jpg"))
        #expect(NSDictionary(dictionary: json).isEqual(to: expected), "pick --json \(json) vs selection --json \(expected)")
    }

    @Test func aClickOnAnAlbumOpensIt() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "click", "--graphics", "none"])
        // SGR mouse: left button pressed on column 3, row 5 (1-based): the third album row, Kyoto.
        try await pick.type("\u{1b}[<0;3;5M")
        try await pick.waitFor("Kyoto opened by the click") { _ in try await status(daemon, "click")["album"] as? String == "Kyoto" }
        try await pick.waitFor("Kyoto's photos listed") { $0.contains("a.jpg") && $0.contains("c.jpg") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func aPhotoAddedOnDiskShowsUpInTheOpenAlbum() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        try library.add(source, album: "Kyoto", as: "e-new.jpg")
        try await pick.waitFor("the new photo listed", seconds: 30) { $0.contains("e-new.jpg") && $0.contains("Kyoto (4)") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func spaceAtTheMaximumIsRefusedWithAMessage() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "max", "--graphics", "none", "--max", "1"])
        try await pick.press("j", "j", "Enter")
        try await pick.waitFor("Kyoto open") { $0.contains("c.jpg") }
        try await pick.press("Space")
        try await pick.waitFor("one pick") { $0.contains("1 of 1 picked") }
        try await pick.press("j", "Space")
        try await pick.waitFor("the refusal") { $0.contains("pick list full") }
        await #expect(try pick.screen().contains("1 of 1 picked"))
        try await pick.press("Enter")
        let result = try await pick.waitForExit()
        #expect(String(decoding: result.stdout, as: UTF8.self) == absolute("Kyoto/a.jpg") + "\n")
    }

    @Test func singleAcceptsTheCurrentPhotoOnSpace() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none", "--single"])
        try await pick.press("j", "Space")
        let result = try await pick.waitForExit()
        #expect(result.code == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == absolute("Kyoto/b.jpg") + "\n")
    }

    @Test func kittyThroughPassthroughIsPlacedAtThePanesSpotOnTheOuterScreen() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "kitty"], rightPaneColumns: 100)
        try await pick.recordOutput()
        try await pick.go()
        let left = await Int(try pick.paneFormat("#{pane_left}")) ?? -1, top = await Int(try pick.paneFormat("#{pane_top}")) ?? -1
        #expect(left > 50 && top == 0, "pick's pane is the right one")
        // In the pane: CSI r;c H, then the wrapped image whose first bytes move the outer cursor to r+top;c+left.
        let spot = try await #require(pick.waitForRecording { (text: String) -> [Int]? in
            guard let match = text.firstMatch(of: /\x1b\[(\d+);(\d+)H\x1bPtmux;\x1b\x1b7\x1b\x1b\[(\d+);(\d+)H\x1b\x1b_Ga=T/) else { return nil }
            return [match.1, match.2, match.3, match.4].compactMap { Int($0) }
        })
        #expect(spot.count == 4 && spot[2] == spot[0] + top && spot[3] == spot[1] + left, "inner \(spot.prefix(2)), outer \(spot.suffix(2)), pane at \(left),\(top)")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func daemonGoingAwayRestoresTheTerminalAndExits5() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "gone", "--graphics", "none"])
        await daemon.stop()
        let result = try await pick.waitForExit()
        #expect(result.code == 5)
        #expect(result.stdout.isEmpty)
        try await expectRestored(pick)
        await #expect(try pick.screen().contains("pickerd"), "a clear message names the daemon")
    }

    @Test func sigtermRestoresTheTerminalAndCancels() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "term", "--graphics", "none"])
        let pid = try await #require(try pick.pickPID())
        kill(pid, SIGTERM)
        let result = try await pick.waitForExit()
        #expect(result.code == 3)
        try await expectRestored(pick)
    }

    @Test func withoutATerminalPickIsRefusedWithExit2() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        // setsid: a new session has no controlling terminal, so /dev/tty cannot be opened.
        let r = try await runProcess("/usr/bin/setsid", ["-w", TestEnvironment.pickerctl.path, "--socket", daemon.socketPath, "pick"])
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("terminal"))
    }

    @Test func symbolsGraphicsFillTheImagePaneWithColouredCells() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await sessionInKyoto(daemon)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "symbols"])
        // The landscape photo fitted to the 95x44-cell pane is 31 cell rows of symbols.
        func colouredRows(_ screen: String) -> Int {
            screen.split(separator: "\n").dropFirst(2).filter { $0.contains("[38;2;") || $0.contains("[48;2;") }.count
        }
        let screen = try await pick.waitFor("rows of 24-bit coloured cells", escapes: true) { colouredRows($0) >= 25 }
        #expect(colouredRows(screen) <= 44, "no more rows than the pane has")
        // The lists are still there beside the picture.
        await #expect(try pick.screen().contains("b.jpg"))
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
