import Foundation
import Testing

/// Issue 24 item 4 in tmux with symbols: `z` in the preview toggles fit / 1:1, h j k l then move the
/// view, and the same view comes back the same picture.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickZoomTests {
    static let rows = 40

    /// The preview's picture rows (below the header, above the status row), cell by cell.
    private func picture(_ screen: String) -> [[ScreenCells.Cell]] {
        let cells = ScreenCells(screen).cells
        return Array(cells[min(1, cells.count)..<max(1, min(cells.count, Self.rows - 2))])
    }

    private func coloured(_ rows: [[ScreenCells.Cell]]) -> Int {
        rows.filter { row in row.contains { !$0.fg.isEmpty || !$0.bg.isEmpty } }.count
    }

    @Test func zShowsThePhotoAt1To1AndTheKeysPanIt() async throws {
        let library = try await TemporaryLibrary()
        // 5760x3840: at 1:1 the screen holds a small part of it, so every pan shows another part.
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"),
                        album: "Camera", as: "big.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "z", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Camera", session: "z").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "big.jpg", session: "z").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "z", "--graphics", "symbols"], columns: 160, rows: Self.rows)
        try await pick.press("p")
        let fit = picture(try await pick.waitForSettled("the fitted preview", escapes: true) { text in
            text.contains("z 1:1") && coloured(picture(text)) >= 20
        })

        try await pick.press("z")
        let middle = picture(try await pick.waitForSettled("the preview at 1:1", seconds: 60, escapes: true) { text in
            text.contains("1:1  h j k l") && coloured(picture(text)) >= 20 && picture(text) != fit
        })
        try await pick.press("l")
        let right = picture(try await pick.waitForSettled("the view moved right", seconds: 60, escapes: true) { text in
            coloured(picture(text)) >= 20 && picture(text) != middle && picture(text) != fit
        })
        #expect(right != middle)
        try await pick.press("h")
        try await pick.waitFor("the middle again", seconds: 60, escapes: true) { picture($0) == middle }
        try await pick.press("z")
        try await pick.waitFor("fitted again", seconds: 60, escapes: true) { $0.contains("z 1:1") && picture($0) == fit }
        #expect(!FileManager.default.fileExists(atPath: pick.exitCodeURL.path), "z, h and l did not end the pick")
        try await pick.press("q")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
