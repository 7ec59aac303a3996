import Foundation
import Testing

/// `pickerctl pick` driven in tmux as a user drives it, against a live daemon on a small library:
/// what the screen shows, what the keys do, what reaches stdout, the exit codes, and the terminal
/// handed back as it was on every way out.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickTmuxTests {
    let library: TemporaryLibrary

    init() throws {
        library = try TemporaryLibrary()
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
    private func sessionInKyoto(_ daemon: LiveDaemon, photo: String? = "b.jpg", title: String = "Photo Library") throws {
        #expect(try daemon.ctl("session", "new", "pk", "--width", "400", "--title", title).exitCode == 0)
        #expect(try daemon.ctl("select-album", "Kyoto", session: "pk").exitCode == 0)
        if let photo { #expect(try daemon.ctl("select-photo", photo, session: "pk").exitCode == 0) }
    }

    private func status(_ daemon: LiveDaemon, _ session: String) throws -> [String: Any] {
        let r = try daemon.ctl("session", "show", session, "--json")
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    /// The terminal is back as it was: main screen, cursor shown, nothing of the picker left.
    private func expectRestored(_ pick: PickTmux) throws {
        #expect(try pick.paneFormat("#{alternate_on}") == "0")
        #expect(try pick.paneFormat("#{cursor_flag}") == "1")
        let screen = try pick.screen()
        #expect(!screen.contains("Space pick") && !screen.contains("Albums"), "screen after exit:\n\(screen)")
    }

    @Test func titleIsTopLeftAndMessageTopRight() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon, title: "Kyoto Trip")
        let message = try status(daemon, "pk")["message"] as? String ?? ""
        #expect(message.contains("px"), "message: \(message)")
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        let header = try pick.lines()[0]
        #expect(header.hasPrefix("Kyoto Trip"), "header: \(header)")
        #expect(header.trimmingCharacters(in: .whitespaces).hasSuffix(message), "header: \(header)")
        #expect(header.count == 160 || header.trimmingCharacters(in: .whitespaces).count > message.count)
    }

    @Test func albumListShowsAlbumsAndEnterOpensOneWithItsFirstPhotoCurrent() throws {
        let daemon = try LiveDaemon(library: library.url)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "fresh", "--graphics", "none"])
        let screen = try pick.screen()
        for album in ["All Photos (4)", "Home (1)", "Kyoto (3)"] { #expect(screen.contains(album), "\(screen)") }
        #expect(screen.contains("0 of 10 picked"))
        try pick.press("j", "j", "Enter")
        try pick.waitFor("Kyoto's photos") { $0.contains("a.jpg") && $0.contains("b.jpg") && $0.contains("c.jpg") }
        let state = try status(daemon, "fresh")
        #expect(state["album"] as? String == "Kyoto")
        #expect(state["photo"] as? String == "a.jpg")
        try pick.press("j")
        try pick.waitFor("the message of b.jpg") { _ in try status(daemon, "fresh")["photo"] as? String == "b.jpg" }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
        // pick created the session, so it closes it again.
        #expect(try daemon.ctl("session", "show", "fresh").exitCode == 4)
    }

    @Test func spacePicksAndEnterPrintsThePickedAbsolutePathsInOrder() throws {
        let daemon = try LiveDaemon(library: library.url)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "keys", "--graphics", "none"])
        try pick.press("j", "j", "Enter")
        try pick.waitFor("Kyoto's photos") { $0.contains("c.jpg") }
        try pick.press("j", "j", "Space")
        try pick.waitFor("c.jpg picked first") { $0.contains("✓1  c.jpg") && $0.contains("1 of 10 picked") }
        try pick.press("k", "k", "Space")
        try pick.waitFor("a.jpg picked second") { $0.contains("✓2  a.jpg") && $0.contains("2 of 10 picked") }
        try pick.press("Enter")
        let result = try pick.waitForExit()
        #expect(result.code == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == absolute("Kyoto/c.jpg") + "\n" + absolute("Kyoto/a.jpg") + "\n")
        try expectRestored(pick)
    }

    @Test func enterWithNoPicksAcceptsTheCurrentPhotoAndMinus0SeparatesWithNUL() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon, photo: "b.jpg")
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none", "-0"])
        try pick.press("Enter")
        let result = try pick.waitForExit()
        #expect(result.code == 0)
        #expect(Array(result.stdout) == Array((absolute("Kyoto/b.jpg")).utf8) + [0])
        // An existing session is left open, with its album and photo.
        #expect(try status(daemon, "pk")["photo"] as? String == "b.jpg")
    }

    @Test func slashFiltersThePhotoListAsYouTypeAndMakesTheMatchCurrent() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try pick.press("/")
        try pick.type("c")
        let screen = try pick.waitFor("only c.jpg listed") { $0.contains("c.jpg") && !$0.contains("a.jpg") && !$0.contains("b.jpg") }
        #expect(screen.contains("Photos /c"))
        try pick.waitFor("c.jpg current") { _ in try status(daemon, "pk")["photo"] as? String == "c.jpg" }
        try pick.press("Escape")
        try pick.waitFor("the filter cleared") { $0.contains("a.jpg") && $0.contains("b.jpg") }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test(arguments: ["q", "Escape", "C-c"])
    func cancelPrintsNothingExits3AndRestoresTheTerminal(key: String) throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon)
        #expect(try daemon.ctl("toggle", "a.jpg", session: "pk").exitCode == 0)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        #expect(try pick.paneFormat("#{alternate_on}") == "1")
        #expect(try pick.paneFormat("#{cursor_flag}") == "0")
        try pick.press(key)
        let result = try pick.waitForExit()
        #expect(result.code == 3)
        #expect(result.stdout.isEmpty)
        try expectRestored(pick)
    }

    @Test func resizingTheWindowResizesTheSessionPane() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        let before = try status(daemon, "pk")
        let width = before["width"] as? Int ?? 0, height = before["height"] as? Int ?? 0
        #expect(width != 400 && width > 0 && height > 0, "the session is sized to the terminal: \(before)")
        try pick.resize(columns: 100, rows: 30)
        try pick.waitFor("a smaller pane") { _ in
            let after = try status(daemon, "pk")
            return (after["width"] as? Int ?? 0) < width && (after["height"] as? Int ?? 0) < height
        }
        try pick.waitFor("the redrawn help row") { $0.split(separator: "\n").contains { $0.hasPrefix("↑↓ jk move") } }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func anotherClientTogglingTheSessionShowsAtOnce() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        #expect(try daemon.ctl("toggle", "c.jpg", session: "pk").exitCode == 0)
        try pick.waitFor("c.jpg picked by pickerctl toggle") { $0.contains("✓1  c.jpg") && $0.contains("1 of 10 picked") }
        #expect(try daemon.ctl("select-photo", "a.jpg", session: "pk").exitCode == 0)
        try pick.waitFor("a.jpg current in the header") { $0.split(separator: "\n").dropFirst().first?.contains("a.jpg") == true }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func pOpensTheFullScreenPreviewAnyKeyReturnsAndGShowsTheGrid() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try pick.press("p")
        let preview = try pick.waitFor("the preview") { $0.contains("any key returns") }
        #expect(!preview.contains("Albums") && !preview.contains("a.jpg"), "the lists make way:\n\(preview)")
        try pick.press("x")
        try pick.waitFor("the panes back") { $0.contains("Albums") && $0.contains("a.jpg") && !$0.contains("any key returns") }
        try pick.press("g")
        try pick.waitFor("the grid heading") { $0.split(separator: "\n").dropFirst().first?.contains("Grid") == true }
        try pick.press("Space")
        try pick.waitFor("the pick numbered in the grid") { $0.contains("✓1 b.jpg") }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func jsonPrintsTheSelectionAsSelectionJsonDoes() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none", "--json"])
        try pick.press("Space")
        try pick.waitFor("a.jpg picked") { $0.contains("✓1  a.jpg") }
        try pick.press("Enter")
        let result = try pick.waitForExit()
        #expect(result.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let expected = try #require(try JSONSerialization.jsonObject(with: try daemon.ctl("selection", "--json", session: "pk").stdout) as? [String: Any])
        #expect(json["count"] as? Int == 1 && json["max_selection"] as? Int == 10)
        let photos = json["photos"] as? [[String: Any]] ?? []
        #expect(photos.first?["absolute_path"] as? String == absolute("Kyoto/a.jpg"))
        #expect(NSDictionary(dictionary: json).isEqual(to: expected), "pick --json \(json) vs selection --json \(expected)")
    }

    @Test func aClickOnAnAlbumOpensIt() throws {
        let daemon = try LiveDaemon(library: library.url)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "click", "--graphics", "none"])
        // SGR mouse: left button pressed on column 3, row 5 (1-based): the third album row, Kyoto.
        try pick.type("\u{1b}[<0;3;5M")
        try pick.waitFor("Kyoto opened by the click") { _ in try status(daemon, "click")["album"] as? String == "Kyoto" }
        try pick.waitFor("Kyoto's photos listed") { $0.contains("a.jpg") && $0.contains("c.jpg") }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func aPhotoAddedOnDiskShowsUpInTheOpenAlbum() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        try library.add(source, album: "Kyoto", as: "e-new.jpg")
        try pick.waitFor("the new photo listed", seconds: 30) { $0.contains("e-new.jpg") && $0.contains("Kyoto (4)") }
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func spaceAtTheMaximumIsRefusedWithAMessage() throws {
        let daemon = try LiveDaemon(library: library.url)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "max", "--graphics", "none", "--max", "1"])
        try pick.press("j", "j", "Enter")
        try pick.waitFor("Kyoto open") { $0.contains("c.jpg") }
        try pick.press("Space")
        try pick.waitFor("one pick") { $0.contains("1 of 1 picked") }
        try pick.press("j", "Space")
        try pick.waitFor("the refusal") { $0.contains("pick list full") }
        #expect(try pick.screen().contains("1 of 1 picked"))
        try pick.press("Enter")
        let result = try pick.waitForExit()
        #expect(String(decoding: result.stdout, as: UTF8.self) == absolute("Kyoto/a.jpg") + "\n")
    }

    @Test func singleAcceptsTheCurrentPhotoOnSpace() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon, photo: "a.jpg")
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none", "--single"])
        try pick.press("j", "Space")
        let result = try pick.waitForExit()
        #expect(result.code == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == absolute("Kyoto/b.jpg") + "\n")
    }

    @Test func kittyThroughPassthroughIsPlacedAtThePanesSpotOnTheOuterScreen() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "kitty"], rightPaneColumns: 100)
        try pick.recordOutput()
        try pick.go()
        let left = Int(try pick.paneFormat("#{pane_left}")) ?? -1, top = Int(try pick.paneFormat("#{pane_top}")) ?? -1
        #expect(left > 50 && top == 0, "pick's pane is the right one")
        // In the pane: CSI r;c H, then the wrapped image whose first bytes move the outer cursor to r+top;c+left.
        let spot = try #require(pick.waitForRecording { (text: String) -> [Int]? in
            guard let match = text.firstMatch(of: /\x1b\[(\d+);(\d+)H\x1bPtmux;\x1b\x1b7\x1b\x1b\[(\d+);(\d+)H\x1b\x1b_Ga=T/) else { return nil }
            return [match.1, match.2, match.3, match.4].compactMap { Int($0) }
        })
        #expect(spot.count == 4 && spot[2] == spot[0] + top && spot[3] == spot[1] + left, "inner \(spot.prefix(2)), outer \(spot.suffix(2)), pane at \(left),\(top)")
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func daemonGoingAwayRestoresTheTerminalAndExits5() throws {
        let daemon = try LiveDaemon(library: library.url)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "gone", "--graphics", "none"])
        daemon.stop()
        let result = try pick.waitForExit()
        #expect(result.code == 5)
        #expect(result.stdout.isEmpty)
        try expectRestored(pick)
        #expect(try pick.screen().contains("pickerd"), "a clear message names the daemon")
    }

    @Test func sigtermRestoresTheTerminalAndCancels() throws {
        let daemon = try LiveDaemon(library: library.url)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "term", "--graphics", "none"])
        let pid = try #require(try pick.pickPID())
        kill(pid, SIGTERM)
        let result = try pick.waitForExit()
        #expect(result.code == 3)
        try expectRestored(pick)
    }

    @Test func withoutATerminalPickIsRefusedWithExit2() throws {
        let daemon = try LiveDaemon(library: library.url)
        // setsid: a new session has no controlling terminal, so /dev/tty cannot be opened.
        let r = try runProcess("/usr/bin/setsid", ["-w", TestEnvironment.pickerctl.path, "--socket", daemon.socketPath, "pick"])
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("terminal"))
    }

    @Test func symbolsGraphicsFillTheImagePaneWithColouredCells() throws {
        let daemon = try LiveDaemon(library: library.url)
        try sessionInKyoto(daemon)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "symbols"])
        // The landscape photo fitted to the 95x44-cell pane is 31 cell rows of symbols.
        func colouredRows(_ screen: String) -> Int {
            screen.split(separator: "\n").dropFirst(2).filter { $0.contains("[38;2;") || $0.contains("[48;2;") }.count
        }
        let screen = try pick.waitFor("rows of 24-bit coloured cells", escapes: true) { colouredRows($0) >= 25 }
        #expect(colouredRows(screen) <= 44, "no more rows than the pane has")
        // The lists are still there beside the picture.
        #expect(try pick.screen().contains("b.jpg"))
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }
}
