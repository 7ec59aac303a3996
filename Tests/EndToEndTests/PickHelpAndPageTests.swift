import Foundation
import Testing

/// Issue 24 item 6 in tmux: the grid heading names its page (`page N/M`), Enter in the grid previews
/// and never accepts, and `?` shows every key, closed by any key.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickHelpAndPageTests {
    @Test func gridShowsItsPageAndEnterThereOpensThePreview() async throws {
        let library = try await TemporaryLibrary()
        let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        for i in 1...40 { try library.add(photo, album: "Many", as: String(format: "p%02d.jpg", i)) }
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "g", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Many", session: "g").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "p01.jpg", session: "g").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "g", "--graphics", "symbols"])
        try await pick.press("g")
        let first = try await pick.waitFor("the grid's page in its heading") { $0.contains("Grid  page 1/") }
        let pages = Int(first.split(separator: "\n")[1].components(separatedBy: "page 1/").last?.prefix { $0.isNumber } ?? "") ?? 0
        #expect(pages >= 2, "40 photos take more than one page: \(first.split(separator: "\n")[1])")
        try await pick.press("G")
        try await pick.waitFor("the last page") { $0.contains("Grid  page \(pages)/\(pages)") }

        try await pick.press("Enter")
        try await pick.waitFor("the preview") { $0.contains(PickKeys.previewHelp) }
        #expect(!FileManager.default.fileExists(atPath: pick.exitCodeURL.path), "Enter in the grid did not end the pick")
        try await pick.press("Escape")
        try await pick.waitFor("back in the grid") { $0.contains("Grid  page \(pages)/\(pages)") }

        try await pick.press("?")
        let help = try await pick.waitFor("the help") { $0.contains("any key closes the help") }
        for line in ["Enter", "Space", "filter", "thumbnail grid", "full-screen", "cancel"] {
            #expect(help.contains(line), "the help names \(line):\n\(help)")
        }
        try await pick.press("q")
        try await pick.waitFor("the grid again") { $0.contains("Grid  page") && !$0.contains("any key closes") }
        #expect(!FileManager.default.fileExists(atPath: pick.exitCodeURL.path), "q closed the help, not the pick")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
