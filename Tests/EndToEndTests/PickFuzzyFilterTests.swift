import Foundation
import Testing

/// Issue 24 item 5 in tmux: `/` filters fuzzily as fzf does, best match first, the matched
/// characters highlighted, `N/M` in the heading, and on no match the picture pane says so.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickFuzzyFilterTests {
    @Test func slashMatchesFuzzilyHighlightsCountsAndSaysNoMatch() async throws {
        let library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        for name in ["astronaut.jpg", "kyoto_trip.jpg", "tr_other.jpg", "zen.jpg"] {
            try library.add(source, album: "Trip", as: name)
        }
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Trip", session: "pk").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "zen.jpg", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "symbols"])
        try await pick.press("/")
        try await pick.type("ktr")
        let screen = try await pick.waitFor("the fuzzy match and its count") { $0.contains("Photos /ktr  1/4") }
        #expect(screen.contains("kyoto_trip.jpg") && !screen.contains("astronaut.jpg"), "\(screen)")
        // k, t, r underlined in green (tmux writes the colour as its own sequence), nothing else.
        let coloured = try await pick.screen(escapes: true)
        let row = coloured.split(separator: "\n").first { $0.contains("│") && $0.contains("oto_") } ?? Substring(coloured)
        #expect(row.components(separatedBy: "32m").count - 1 == 3, "\(row.debugDescription)")
        for c in ["k", "t", "r"] { #expect(row.contains("32m\(c)"), "\(c) highlighted: \(row.debugDescription)") }
        let current = try await daemon.ctl("session", "show", "pk", "--json").stdoutText
        #expect(current.contains("\"photo\":\"kyoto_trip.jpg\""), "the best match is current: \(current)")
        try await pick.press("BSpace", "BSpace")
        try await pick.waitFor("three matches of k, best first") { $0.contains("Photos /k  1/4") }
        try await pick.type("qq")
        let none = try await pick.waitFor("no match") { $0.contains("Photos /kqq  0/4") && $0.contains("no match") }
        #expect(!none.contains("kyoto_trip.jpg"), "\(none)")
        try await pick.press("Escape")
        try await pick.waitFor("the whole list back") { $0.contains("Photos (4)") && $0.contains("astronaut.jpg") && !$0.contains("no match") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
