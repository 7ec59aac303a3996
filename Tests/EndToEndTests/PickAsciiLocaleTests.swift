import Foundation
import Testing

/// pick in a locale that is not UTF-8 (LANG=C): every byte it writes is ASCII (its frame and marks
/// from the ASCII glyphs, the names' other characters as `?`, a column each), and the panes' borders
/// stand where they stand in UTF-8.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickAsciiLocaleTests {
    static let album = "Kyōto"
    static let names = ["写真.jpg", "café.jpg", "plain.jpg"]

    /// What one run showed: the panes with a pick, and every byte written to the pane.
    struct Run {
        var panes: [String]
        var recording: String
    }

    /// Starts pick under `lang`, then walks the screens: panes, a pick, the filter, help, grid, preview.
    private func run(_ daemon: LiveDaemon, lang: String, picked: String, bar: String) async throws -> Run {
        // A session of its own for each run: the first run's pick stays in its session.
        let session = "s-\(picked.unicodeScalars.first?.value ?? 0)"
        #expect(try await daemon.ctl("session", "new", session, "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", Self.album, session: session).exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "plain.jpg", session: session).exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", session, "--graphics", "symbols"],
                                      environment: ["LANG": lang], rightPaneColumns: 150)
        try await pick.recordOutput()
        try await pick.go()
        try await pick.press("Space")
        let panes = try await pick.waitFor("the pick's mark") { $0.contains(picked + "1  ") && $0.contains("1 of") }
        try await pick.press("/")
        try await pick.type("caf")
        try await pick.waitFor("the filter") { $0.contains("filter: /caf") }
        try await pick.press("Escape")
        try await pick.press("?")
        try await pick.waitFor("the help") { $0.contains("any key closes the help") }
        try await pick.press("q")
        try await pick.press("g")
        try await pick.waitFor("the grid") { $0.contains("page 1/") }
        try await pick.press("g")
        try await pick.press("p")
        try await pick.waitFor("the preview") { $0.contains("Esc back") }
        try await pick.press("Escape")
        try await pick.waitFor("the panes again") { $0.contains("Photos (") && $0.contains(bar) }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
        let recording = (try? Data(contentsOf: pick.recordingURL)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Run(panes: panes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), recording: recording)
    }

    @Test func inTheCLocaleEveryByteIsASCIIAndTheBordersStayPut() async throws {
        let library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        for name in Self.names { try library.add(source, album: Self.album, as: name) }
        let daemon = try await LiveDaemon(library: library.url)

        let ascii = try await run(daemon, lang: "C", picked: "*", bar: "|")
        #expect(ascii.recording.contains("Space pick"), "the recording holds the screens")
        let foreign = Set(ascii.recording.unicodeScalars.filter { !$0.isASCII })
        #expect(foreign.isEmpty, "non-ASCII written: \(foreign.map { String(format: "U+%04X", $0.value) }.sorted())")
        let screen = ascii.panes.joined(separator: "\n")
        #expect(screen.contains(">Ky?to (3)"), "the open album marked in ASCII, its name's ō a ?:\n\(screen)")
        #expect(screen.contains("caf?.jpg") && screen.contains("????.jpg"), "a ? a column:\n\(screen)")

        let unicode = try await run(daemon, lang: "C.UTF-8", picked: "✓", bar: "│")
        #expect(unicode.panes.contains { $0.contains("▸" + Self.album) })
        // The first two bars of every pane row (the picture may hold more "|"), in both runs.
        let asciiBars = ascii.panes.dropFirst(2).map { Array(Self.columns(of: "|", in: $0).prefix(2)) }
        let unicodeBars = unicode.panes.dropFirst(2).map { Array(Self.columns(of: "│", in: $0).prefix(2)) }
        #expect(asciiBars.filter { $0.count == 2 }.count >= 10, "\(ascii.panes.joined(separator: "\n"))")
        for (row, bars) in unicodeBars.enumerated() where bars.count == 2 {
            #expect(asciiBars[row] == bars, "row \(row + 2): \(ascii.panes[row + 2])\n\(unicode.panes[row + 2])")
        }
        for name in ["caf?.jpg", "????.jpg", "plain.jpg"] {
            let row = try #require(ascii.panes.firstIndex { $0.contains(name) && $0.contains("|") })
            #expect(Array(Self.columns(of: "|", in: ascii.panes[row]).prefix(2)) == unicodeBars[0], "\(name): \(ascii.panes[row])")
        }
    }

    /// The terminal columns of `bar` in a captured row (CJK ideographs take two columns).
    static func columns(of bar: Unicode.Scalar, in row: String) -> [Int] {
        var column = 0, found: [Int] = []
        for scalar in row.unicodeScalars {
            if scalar == bar { found.append(column) }
            column += (0x4E00...0x9FFF).contains(scalar.value) ? 2 : 1
        }
        return found
    }
}
