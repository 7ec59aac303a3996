import Foundation
import PickerProtocol
import Testing

/// Issue 24 item 8 in tmux: `pick --graphics symbols` draws with symbols every font shows: ASCII
/// when the locale is not UTF-8 (LANG=C), block elements in a UTF-8 locale, sextants when asked.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickSymbolClassTests {
    /// The characters of the picture: cells with a 24-bit colour right of `left`, below the header
    /// rows and above the two bottom rows.
    private static func pictureCharacters(_ screen: String, from left: Int) -> [Character] {
        let cells = ScreenCells(screen)
        var found: [Character] = []
        for row in cells.cells.dropFirst(2).dropLast(2) {
            for (c, cell) in row.enumerated() where c >= left && (cell.fg.contains(",") || cell.bg.contains(",")) {
                found.append(cell.text)
            }
        }
        return found
    }

    private static func described(_ chars: [Character]) -> String {
        Set(chars.flatMap(\.unicodeScalars)).map { String(format: "U+%04X", $0.value) }.sorted().joined(separator: " ")
    }

    /// A daemon on a library of two photos with session "s" on one; the library lives as long as the result.
    private func daemonWithAPhoto() async throws -> (TemporaryLibrary, LiveDaemon) {
        let library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(source.appendingPathComponent("Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        try library.add(source.appendingPathComponent("Landscape_6.jpg"), album: "Kyoto", as: "b.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "s", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Kyoto", session: "s").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "a.jpg", session: "s").exitCode == 0)
        return (library, daemon)
    }

    /// Waits for a picture of at least `minimum` cells right of the image pane's left edge (all
    /// columns with `fullScreen`), and returns its characters.
    private func picture(_ pick: PickTmux, _ what: String, fullScreen: Bool = false, minimum: Int = 400,
                         until extra: @escaping (String) -> Bool = { _ in true }) async throws -> [Character] {
        let screen = try await pick.waitFor(what, escapes: true) { text in
            let left = fullScreen ? 0 : ScreenCells(text).imageColumn()
            return extra(text) && Self.pictureCharacters(text, from: left).count >= minimum
        }
        return Self.pictureCharacters(screen, from: fullScreen ? 0 : ScreenCells(screen).imageColumn())
    }

    @Test func inTheCLocalePickDrawsEveryPictureInASCII() async throws {
        let (library, daemon) = try await daemonWithAPhoto()
        defer { withExtendedLifetime(library) {} }
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "s", "--graphics", "symbols"],
                                      environment: ["LANG": "C"])
        let main = try await picture(pick, "the photo as symbols")
        #expect(main.allSatisfy { $0.isASCII && !$0.isNewline }, "non-ASCII in the picture: \(Self.described(main))")
        try await pick.press("g")
        let grid = try await picture(pick, "the grid as symbols", minimum: 100) { $0.contains("page 1/") }
        #expect(grid.allSatisfy { $0.isASCII }, "non-ASCII in the grid: \(Self.described(grid))")
        try await pick.press("g")
        try await pick.press("p")
        let preview = try await picture(pick, "the preview as symbols", fullScreen: true, minimum: 1000) { !$0.contains("Albums") }
        #expect(preview.allSatisfy { $0.isASCII }, "non-ASCII in the preview: \(Self.described(preview))")
        try await pick.press("Escape")
        try await pick.press("q")
        _ = try await pick.waitForExit()
    }

    @Test(arguments: [(["LANG": "C.UTF-8"], [String](), "block"), (["LANG": "C"], ["--symbols", "block"], "block"),
                      (["LANG": "C.UTF-8"], ["--symbols", "sextant"], "sextant")])
    func aUTF8LocaleGetsBlocksAndSymbolsChooses(environment: [String: String], options: [String], expected: String) async throws {
        let (library, daemon) = try await daemonWithAPhoto()
        defer { withExtendedLifetime(library) {} }
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "s", "--graphics", "symbols"] + options,
                                      environment: environment)
        let chars = try await picture(pick, "the photo as symbols")
        let scalars = chars.flatMap(\.unicodeScalars)
        let isBlock: (Unicode.Scalar) -> Bool = { $0 == " " || (0x2580...0x259F).contains($0.value) }
        let isSextant: (Unicode.Scalar) -> Bool = { (0x1FB00...0x1FB3B).contains($0.value) }
        if expected == "block" {
            #expect(scalars.allSatisfy(isBlock), "\(environment) \(options): \(Self.described(chars))")
        } else {
            #expect(scalars.allSatisfy { isBlock($0) || isSextant($0) || (0x2500...0x257F).contains($0.value) },
                    "\(Self.described(chars))")
            #expect(scalars.contains(where: isSextant), "no sextant: \(Self.described(chars))")
        }
        try await pick.press("q")
        _ = try await pick.waitForExit()
    }

    @Test func anUnknownClassIsRefusedBeforeTheTerminalIsTouched() async throws {
        let (library, daemon) = try await daemonWithAPhoto()
        defer { withExtendedLifetime(library) {} }
        let r = try await daemon.ctl("pick", "--symbols", "braille", session: "s")
        #expect(r.exitCode == 2 && r.stderr.contains("--symbols must be block, sextant, ascii"), "\(r)")
    }
}
