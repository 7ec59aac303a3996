import Foundation
import Testing

/// Issue 21 #4, #7, #10: a hostile file name reaches `pickerctl pick`'s terminal and stdout only as
/// inert text: tmux `capture-pane -e` shows no raw control byte from it, wide names keep the pane
/// borders where they belong, and the picked path cannot split into two lines.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickNameInertTests {
    static let good = "good.jpg"
    let library: TemporaryLibrary
    let source: URL

    init() throws {
        library = try TemporaryLibrary()
        source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        try library.add(source, album: "A", as: Self.good)
    }

    /// A session on `album` with `photo` current.
    private func session(_ daemon: LiveDaemon, _ name: String, album: String, photo: String) throws {
        #expect(try daemon.ctl("session", "new", name, "--width", "400").exitCode == 0)
        #expect(try daemon.ctl("select-album", album, session: name).exitCode == 0)
        #expect(try daemon.ctl("select-photo", photo, session: name).exitCode == 0)
    }

    @Test func refusalQuotingAHostileNameIsShownEscaped() throws {
        // A truncated JPEG whose name sets the pane title (OSC 2) and clears the screen.
        let hostile = "\u{1b}]2;PWNED\u{07}\u{1b}[2Jx.jpg"
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("jpeg-broken/sharp_truncated.jpg"), album: "A", as: hostile)
        let daemon = try LiveDaemon(library: library.url)
        try session(daemon, "b", album: "A", photo: hostile)
        let failed = try daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "b")
        #expect(failed.exitCode == 1, "\(failed)")

        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "b", "--graphics", "none"])
        try pick.press("Space")
        let refused = try pick.waitFor("the daemon's refusal") { $0.contains("cannot pick") }
        #expect(refused.contains("\\e]2;PWNED\\x07\\e[2Jx.jpg"), "the name is shown escaped:\n\(refused)")
        #expect(refused.contains("Space pick"), "the screen was not cleared:\n\(refused)")
        #expect(try pick.paneFormat("#{pane_title}") != "PWNED")
        let raw = try pick.screen(escapes: true)
        #expect(!raw.contains("\u{1b}]") && !raw.contains("\u{07}") && !raw.contains("\u{1b}[2J"), "\(raw.debugDescription)")
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func wideAndBidiNamesKeepThePaneBordersInPlace() throws {
        let wide = String(repeating: "写", count: 40) + ".jpg"          // 84 terminal columns
        let bidi = "\u{202E}gpj.exe"                                      // shows as "exe.jpg" if raw
        try library.add(source, album: "A", as: wide)
        try library.add(source, album: "A", as: bidi)
        let daemon = try LiveDaemon(library: library.url)
        try session(daemon, "w", album: "A", photo: Self.good)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "w", "--graphics", "none"])
        let screen = try pick.waitFor("the three rows") { $0.contains(Self.good) && $0.contains("写写") && $0.contains("gpj.exe") }
        let rows = screen.split(separator: "\n").map(String.init)
        let goodRow = try #require(rows.first { $0.contains(Self.good) && $0.contains("│") })
        let wideRow = try #require(rows.first { $0.contains("写写") && $0.contains("│") })
        #expect(Self.borderColumns(wideRow) == Self.borderColumns(goodRow), "\(goodRow)\n\(wideRow)")
        #expect(!screen.contains("\u{202E}"), "U+202E reached the terminal raw")
        #expect(screen.contains("\\u{202e}gpj.exe"), "\(screen)")
        try pick.press("q")
        #expect(try pick.waitForExit().code == 3)
    }

    @Test func pickedNameWithANewlineIsOneEscapedLineAndExactWithMinus0() throws {
        let name = "two\n.bashrc.jpg"
        let path = try library.add(source, album: "N", as: name).path
        let daemon = try LiveDaemon(library: library.url)
        try session(daemon, "n", album: "N", photo: name)
        let pick = try PickTmux(daemon: daemon, arguments: ["--session", "n", "--graphics", "none"])
        try pick.press("Enter")
        let result = try pick.waitForExit()
        #expect(result.code == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text == path.replacingOccurrences(of: "\n", with: "\\n") + "\n", "\(text.debugDescription)")
        #expect(text.split(separator: "\n").count == 1)

        let exact = try PickTmux(daemon: daemon, arguments: ["--session", "n", "--graphics", "none", "-0"])
        try exact.press("Enter")
        let nul = try exact.waitForExit()
        #expect(Array(nul.stdout) == Array(path.utf8) + [0])
    }

    /// The terminal columns of every `│` in a captured row (CJK ideographs take two columns).
    static func borderColumns(_ row: String) -> [Int] {
        var column = 0, found: [Int] = []
        for scalar in row.unicodeScalars {
            if scalar == "│" { found.append(column) }
            column += (0x4E00...0x9FFF).contains(scalar.value) ? 2 : 1
        }
        return found
    }
}
