import Foundation
import Testing

/// Issue 24 item 7 in tmux with symbols: the picture sits in the middle of its pane and of the
/// full-screen preview, not at their left edge.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickCentringTests {
    /// Columns and rows of the coloured cells right of `left`, between the header rows and the two bottom
    /// rows; black cells (the preview's bars) are not the picture.
    private func picture(_ screen: ScreenCells, from left: Int, top: Int) -> (c0: Int, c1: Int, r0: Int, r1: Int)? {
        var found: (c0: Int, c1: Int, r0: Int, r1: Int)? = nil
        for r in top..<max(top, screen.cells.count - 2) {
            for (c, cell) in screen.cells[r].enumerated() where c >= left && Self.isPicture(cell) {
                found = (min(found?.c0 ?? c, c), max(found?.c1 ?? c, c), min(found?.r0 ?? r, r), max(found?.r1 ?? r, r))
            }
        }
        return found
    }

    private static func isPicture(_ cell: ScreenCells.Cell) -> Bool {
        let colours = [cell.fg, cell.bg].filter { !$0.isEmpty }
        return !colours.isEmpty && colours.contains { $0 != "0,0,0" }
    }

    @Test func theLandscapePhotoIsCentredInAWidePaneAndInThePreview() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "c", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "c").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "a.jpg", session: "c").exitCode == 0)
        // 240x40: the image pane is about 140 columns by 36 rows; a 3:2 photo in 1:2 cells is about
        // 108 columns wide there, so it has room either side.
        let columns = 240
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "c", "--graphics", "symbols"], columns: columns, rows: 40)
        let screen = try await pick.waitFor("the photo as symbols", escapes: true) { text in
            let cells = ScreenCells(text)
            return cells.colouredRows(from: cells.imageColumn() + 70, row: 2) >= 10
        }
        let cells = ScreenCells(screen)
        let left = cells.imageColumn()
        let box = try #require(picture(cells, from: left, top: 2), "\(cells.lines.joined(separator: "\n"))")
        let leftMargin = box.c0 - left, rightMargin = columns - 1 - box.c1
        #expect(leftMargin > 8 && abs(leftMargin - rightMargin) <= 2, "margins \(leftMargin) | \(rightMargin): \(box) in columns \(left)..<\(columns)")

        try await pick.press("p")
        let preview = try await pick.waitFor("the preview", escapes: true) { text in
            let c = ScreenCells(text)
            return c.colouredRows(from: columns / 2, row: 1) >= 20 && !text.contains("Albums")
        }
        let full = try #require(picture(ScreenCells(preview), from: 0, top: 1))
        let l = full.c0, r = columns - 1 - full.c1
        #expect(l > 8 && abs(l - r) <= 2, "preview margins \(l) | \(r): \(full)")
        try await pick.press("q")
        try await pick.press("q")
        _ = try await pick.waitForExit()
    }
}
