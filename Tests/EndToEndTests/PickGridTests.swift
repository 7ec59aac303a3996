import Foundation
import Testing

/// `pickerctl pick`'s thumbnail grid in the terminal formats (drawn by pickerd: `thumbnails` with an
/// output format), and its photo list over an album beyond one 10,000-photo page.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickGridTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(source.appendingPathComponent("Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        try library.add(source.appendingPathComponent("Landscape_3.jpg"), album: "Kyoto", as: "b.jpg")
        try library.add(source.appendingPathComponent("Landscape_6.jpg"), album: "Kyoto", as: "c.jpg")
    }

    @Test func symbolsGridIsColouredCellsAndAPickChangesOnlyThePickedCellWithItsBadge() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Kyoto", session: "pk").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "b.jpg", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "symbols"])
        try await pick.press("g")
        // A whole frame: the pane's rows were once counted as the picture rows drawn so far (8 of 10),
        // and the daemon's grid for 8 rows is smaller than pick's (the flake of CI on 2026-12-01, 02).
        let first = try await pick.waitFor("the grid as coloured symbols, drawn and still", seconds: 60, escapes: true) { screen in
            let grid = ScreenCells(screen)
            guard screen.contains("Grid") && grid.colouredRows(from: grid.imageColumn(), row: 2) >= 3 else { return false }
            await pause(300_000)
            return try await pick.screen(escapes: true) == screen
        }
        let text = try await pick.screen()
        let layout = ScreenCells(first)
        let column = layout.imageColumn()
        let pane = text.split(separator: "\n").dropFirst(2).map { String($0.dropFirst(column)) }.joined(separator: "\n")
        #expect(!pane.contains("a.jpg") && !pane.contains("b.jpg"), "pictures, not the text grid:\n\(pane)")
        // The symbols pick draws: the daemon's own for the same page and pane (trailing background cells
        // may come back from capture-pane uncoloured, so the screen cannot say how wide it is).
        // Every row with the pane's left border, blank ones too (capture-pane trims them to the border).
        let paneRows = layout.lines.filter { Array($0).count >= column && Array($0)[column - 1] == "│" }.count
        let state = try await sessionJSON(daemon)
        // The pane's width from tmux: capture-pane trims trailing blanks, so the title row is only as
        // long as its top-right message.
        let paneColumns = (Int(try await pick.paneFormat("#{pane_width}")) ?? 0) - column
        let cellSize = Self.symbolsCellSize(paneWidth: state["width"] as? Int ?? 0, paneColumns: paneColumns)
        let symbols = try await daemon.ctl("thumbnails", "--size", "\(cellSize)", "--format", "symbols", "--cells", "\(paneColumns)x\(paneRows)",
                                           session: "pk")
        let symbolLines = ScreenCells(symbols.stdoutText.trimmingCharacters(in: .newlines)).lines
        // Both snapshots are of a finished grid: every row the daemon's grid has is coloured, and the
        // screen is the same 0.3 s later. One taken while pick was still drawing rows once made cells
        // outside the picked one look changed (the flake of issue 20).
        func finished(_ screen: String) async throws -> Bool {
            guard ScreenCells(screen).colouredRows(from: column, row: 2) >= symbolLines.count else { return false }
            await pause(300_000)
            return try await pick.screen(escapes: true) == screen
        }
        let before = try await pick.waitFor("the whole grid drawn (\(symbolLines.count) rows) and still", seconds: 60, escapes: true) {
            try await finished($0)
        }
        let grid = ScreenCells(before)

        try await pick.press("Space")
        let after = try await pick.waitFor("the whole grid redrawn with the pick and still", seconds: 60, escapes: true) { screen in
            ScreenCells(screen).cells != grid.cells ? try await finished(screen) : false
        }
        let used = (columns: Array(symbolLines.first ?? "").count, rows: symbolLines.count)
        // Only the picture: the lists and the status line change with a pick too.
        let changed = grid.changedCells(ScreenCells(after)).filter { $0.column >= column && $0.row >= 2 && $0.row < 2 + used.rows }
        // Where the daemon put the cells: its geometry for the same session and cell size, in page
        // pixels; the symbols stand for the page at (page width / columns used) px a column.
        let json = try await daemon.ctl("thumbnails", "--json", "--size", "\(cellSize)", session: "pk")
        let page = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any], "\(json)")
        let cells = try #require(page["cells"] as? [[String: Any]])
        let scaleX = Double(used.columns) / Double(page["width"] as? Int ?? 1)
        let scaleY = Double(used.rows) / Double(page["height"] as? Int ?? 1)
        func screenRect(_ cell: [String: Any], inset: Double) -> (c0: Int, c1: Int, r0: Int, r1: Int) {
            let x = Double(cell["x"] as? Int ?? 0), y = Double(cell["y"] as? Int ?? 0), s = Double(cell["width"] as? Int ?? 0)
            return (column + Int(((x + inset) * scaleX).rounded(.down)), column + Int(((x + s - inset) * scaleX).rounded(.up)),
                    2 + Int(((y + inset) * scaleY).rounded(.down)), 2 + Int(((y + s - inset) * scaleY).rounded(.up)))
        }
        let b = try #require(cells.first { $0["name"] as? String == "b.jpg" })
        let a = try #require(cells.first { $0["name"] as? String == "a.jpg" })
        #expect(b["selected"] as? Bool == true)
        let bOuter = screenRect(b, inset: -6)  // the outline ring sits 2 px outside the cell; a symbol is coarse
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { $0.column >= bOuter.c0 - 1 && $0.column <= bOuter.c1 && $0.row >= bOuter.r0 - 1 && $0.row <= bOuter.r1 },
                "only the picked cell changes: \(changed.count) changed, columns \(changed.map(\.column).min() ?? -1)...\(changed.map(\.column).max() ?? -1) rows \(changed.map(\.row).min() ?? -1)...\(changed.map(\.row).max() ?? -1) outside \(bOuter); used \(used) size \(cellSize) page \(page["width"] ?? 0)x\(page["height"] ?? 0) column \(column)")
        let aInner = screenRect(a, inset: 8)
        #expect(!changed.contains { $0.column >= aInner.c0 && $0.column < aInner.c1 && $0.row >= aInner.r0 && $0.row < aInner.r1 },
                "the unpicked cell stays as it was")
        // The badge: D = clamp(c/4, 12, 32) px high in the cell's top-right corner.
        let size = Double(b["width"] as? Int ?? 0)
        let badge = min(32.0, max(12.0, (size / 4).rounded(.down)))
        let bx = Double(b["x"] as? Int ?? 0), by = Double(b["y"] as? Int ?? 0)
        let badgeCols = (column + Int(((bx + size - badge - 8) * scaleX).rounded(.down)))...(column + Int(((bx + size) * scaleX).rounded(.up)))
        let badgeRows = (2 + Int((by * scaleY).rounded(.down)))...(2 + Int(((by + badge + 8) * scaleY).rounded(.up)))
        #expect(changed.contains { badgeCols.contains($0.column) && badgeRows.contains($0.row) }, "the badge corner changed")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    /// Mirrors SymbolGraphics.gridCellSize: about 18 columns a cell.
    static func symbolsCellSize(paneWidth: Int, paneColumns: Int) -> Int {
        let perColumn = max(1, paneWidth / max(1, paneColumns))
        return min(max(16, 18 * perColumn), min(1024, max(16, paneWidth / 2)))
    }

    private func sessionJSON(_ daemon: LiveDaemon) async throws -> [String: Any] {
        let r = try await daemon.ctl("session", "show", "pk", "--json")
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    @Test func sixelTerminalGetsTheGridAsASixelWhoseRasterFitsThePane() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "pty", "--width", "300").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "pty").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "a.jpg", session: "pty").exitCode == 0)
        let watch = try await PaneSizeWatch(daemon, session: "pty", width: 300)
        let recording = daemon.directory.appendingPathComponent("recording")
        let stdout = daemon.directory.appendingPathComponent("stdout")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/pty_terminal.py").path
        let r = try await runProcess(TestEnvironment.python, [script, "sixel", "120", "40", "960", "640", recording.path, stdout.path, "--key=g", "--",
                                                        TestEnvironment.pickerctl.path, "--socket", daemon.socketPath, "--session", "pty", "pick"])
        let summary = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
        #expect(summary["exit"] as? Int == 3 && summary["steps_left"] as? Int == 0, "\(r)")
        let pane = watch.firstSetSize()  // pick gives the session its size back on exit
        let width = pane["width"] as? Int ?? 0, height = pane["height"] as? Int ?? 0
        let rasters = TerminalRecording.sixelRasters(Array((try? Data(contentsOf: recording)) ?? Data()))
        #expect(rasters.count == 2, "the photo, then the grid after g")
        let grid = try #require(rasters.last)
        // The page is as wide as the pane; three 100 px cells make one row: 32 + 100 px, in 6-px bands.
        #expect(grid.width == width && grid.height <= height, "\(grid) in \(width)x\(height)")
        #expect(grid.height == 132 / 6 * 6, "one row of cells: \(grid)")
    }

    /// tmux answers DA1 itself, so pick asks tmux: with `allow-passthrough` on and a client whose
    /// terminal always has sixel (mlterm here; tmux 3.4 also lists `sixel` in its features), `auto`
    /// chooses sixel, and the sixel reaches the terminal outside tmux.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/terminfo/m/mlterm-256color"),
                   "needs the mlterm terminfo (Debian ncurses-term)"))
    func autoInsideTmuxChoosesSixelWhenTheOuterTerminalHasItAndPassthroughIsOn() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "tx", "--width", "300").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Kyoto", session: "tx").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "a.jpg", session: "tx").exitCode == 0)
        let tmux = try #require(findExecutable("tmux"))
        let socket = daemon.directory.appendingPathComponent("t.sock").path
        let q = PickTmux.quoted
        // pick starts once the outer client is attached, so tmux knows the client's terminal.
        let script = "while [ -z \"$(\(q(tmux)) -S \(q(socket)) list-clients)\" ]; do sleep 0.05; done; "
            + "\(q(TestEnvironment.pickerctl.path)) --socket \(q(daemon.socketPath)) --session tx pick > /dev/null"
        let env = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "HOME": daemon.directory.path]
        defer { _ = try? runProcessBlocking(tmux, ["-S", socket, "kill-server"]) }
        await #expect(try runProcess(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "sh", "-c", script],
                               environment: env).exitCode == 0)
        await #expect(try runProcess(tmux, ["-S", socket, "set", "-g", "allow-passthrough", "on"]).exitCode == 0)
        let recording = daemon.directory.appendingPathComponent("outer")
        let stdout = daemon.directory.appendingPathComponent("stdout")
        let pty = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/pty_terminal.py").path
        let r = try await runProcess(TestEnvironment.python, [pty, "outer-sixel", "120", "40", "960", "640", recording.path, stdout.path, "--",
                                                        "/usr/bin/env", "TERM=mlterm-256color", tmux, "-S", socket, "attach"])
        let summary = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
        #expect(summary["steps_left"] as? Int == 0, "\(r)")
        let rasters = TerminalRecording.sixelRasters(Array((try? Data(contentsOf: recording)) ?? Data()))
        #expect(!rasters.isEmpty, "a sixel reached the terminal outside tmux")
        #expect(rasters.allSatisfy { $0.width > 0 && $0.width <= 960 && $0.height <= 640 }, "\(rasters)")
    }

    @Test(arguments: ["End", "G"])
    func theLastOf10050PhotosIsReachedWithEndAndPicked(key: String) async throws {
        let big = try await TemporaryLibrary()
        let made = try await PickBigAlbum.make(10050, in: big.url.appendingPathComponent("Big"))
        try #require(made.exitCode == 0, "\(made)")
        let daemon = try await LiveDaemon(library: big.url)
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Big", session: "pk").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try await pick.waitFor("the album's total") { $0.contains("Photos (10050)") && $0.contains("p00001.jpg") }
        try await pick.press(key)
        try await pick.waitFor("the last photo current", seconds: 60) { screen in
            guard screen.contains("p10050.jpg") else { return false }
            return try await sessionJSON(daemon)["photo"] as? String == "p10050.jpg"
        }
        try await pick.press("Space")
        try await pick.waitFor("one pick") { $0.contains("1 of 10 picked") }
        try await pick.press("Enter")
        let result = try await pick.waitForExit(seconds: 60)
        #expect(result.code == 0)
        let printed = String(decoding: result.stdout, as: UTF8.self)
        #expect(printed.hasSuffix("/Big/p10050.jpg\n"), "\(printed)")
        let state = try await daemon.ctl("session", "show", "pk", "--json")
        #expect(state.stdoutText.contains("\"photo\":\"p10050.jpg\""), "\(state)")
        _ = try await runProcess("/bin/rm", ["-rf", big.url.appendingPathComponent("Big").path])  // FileManager takes seconds
    }

    @Test func scrollingPastTheFirstPageLoadsTheNextAndFilteringSeesTheWholeAlbum() async throws {
        let big = try await TemporaryLibrary()
        let made = try await PickBigAlbum.make(10050, in: big.url.appendingPathComponent("Big"))
        try #require(made.exitCode == 0, "\(made)")
        let daemon = try await LiveDaemon(library: big.url)
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Big", session: "pk").exitCode == 0)
        // Another client makes photo 9,990 current: pick starts there, near the end of page one.
        await #expect(try daemon.ctl("select-photo", "--index", "9990", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "none"])
        try await pick.waitFor("photo 9,990 in the list") { $0.contains("p09990.jpg") }
        // PageDown moves one screen a press; a few cross into the second page.
        for _ in 0..<3 { try await pick.press("PageDown") }
        try await pick.waitFor("a photo of the second page current", seconds: 30) { _ in
            try await (sessionJSON(daemon)["photo_index"] as? Int ?? 0) > 10_000
        }
        // A filter over the whole album finds a photo of the second page.
        try await pick.press("/")
        try await pick.type("p10049")
        try await pick.waitFor("the filtered photo", seconds: 30) { $0.contains("p10049.jpg") && $0.contains("Photos /p10049") }
        try await pick.press("Enter", "Enter")
        let result = try await pick.waitForExit(seconds: 60)
        #expect(result.code == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self).hasSuffix("/Big/p10049.jpg\n"))
        _ = try await runProcess("/bin/rm", ["-rf", big.url.appendingPathComponent("Big").path])
    }
}

/// A tmux `capture-pane -p -e` screen as cells: each position's character and 24-bit colours.
struct ScreenCells {
    struct Cell: Equatable { var text: Character; var fg: String; var bg: String }
    var cells: [[Cell]]
    var lines: [String]

    init(_ screen: String) {
        lines = []
        cells = []
        for line in screen.split(separator: "\n", omittingEmptySubsequences: false) {
            var row: [Cell] = []
            var plain = ""
            var fg = "", bg = ""
            var chars = Array(line)
            var i = 0
            while i < chars.count {
                if chars[i] == "\u{1b}", i + 1 < chars.count, chars[i + 1] == "[" {
                    var j = i + 2
                    while j < chars.count, !(chars[j].isLetter) { j += 1 }
                    if j < chars.count, chars[j] == "m" {
                        Self.apply(String(chars[(i + 2)..<j]), fg: &fg, bg: &bg)
                    }
                    i = j + 1
                    continue
                }
                row.append(Cell(text: chars[i], fg: fg, bg: bg))
                plain.append(chars[i])
                i += 1
            }
            chars = []
            cells.append(row)
            lines.append(plain)
        }
    }

    private static func apply(_ params: String, fg: inout String, bg: inout String) {
        let p = params.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var k = 0
        while k < p.count {
            switch p[k] {
            case "", "0": fg = ""; bg = ""
            case "39": fg = ""
            case "49": bg = ""
            case "38" where k + 4 < p.count && p[k + 1] == "2": fg = p[(k + 2)...(k + 4)].joined(separator: ","); k += 4
            case "48" where k + 4 < p.count && p[k + 1] == "2": bg = p[(k + 2)...(k + 4)].joined(separator: ","); k += 4
            default: break
            }
            k += 1
        }
    }

    /// The image pane's first column: after the second "│" of the first pane row.
    func imageColumn() -> Int {
        guard lines.count > 2 else { return 0 }
        let bars = Array(lines[2]).indices.filter { Array(lines[2])[$0] == "│" }
        return bars.count >= 2 ? bars[1] + 1 : 0
    }

    private func coloured(_ row: Int, _ column: Int) -> Bool {
        guard row < cells.count, column < cells[row].count else { return false }
        return !cells[row][column].fg.isEmpty || !cells[row][column].bg.isEmpty
    }

    func colouredRows(from column: Int, row top: Int) -> Int {
        (top..<cells.count).filter { coloured($0, column) }.count
    }

    func changedCells(_ other: ScreenCells) -> [(column: Int, row: Int)] {
        var out: [(Int, Int)] = []
        for r in 0..<max(cells.count, other.cells.count) {
            let a = r < cells.count ? cells[r] : [], b = r < other.cells.count ? other.cells[r] : []
            for c in 0..<max(a.count, b.count) where (c < a.count ? a[c] : nil) != (c < b.count ? b[c] : nil) {
                out.append((c, r))
            }
        }
        return out
    }
}
