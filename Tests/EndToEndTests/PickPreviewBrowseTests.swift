import Foundation
import Testing

/// What the tests look for in the preview's bottom row (PickRenderer.previewHelp(.unicode)).
enum PickKeys {
    static let previewHelp = "n → next  p ← previous"
}

/// Issue 24 item 4: the full-screen preview is browsed as in nsxiv: n/p and the arrows step through
/// the album, Space picks (the badge shows), Esc returns to where the user was, on the photo stepped to.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickPreviewBrowseTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(source.appendingPathComponent("Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        try library.add(source.appendingPathComponent("Landscape_3.jpg"), album: "Kyoto", as: "b.jpg")
        try library.add(source.appendingPathComponent("Landscape_6.jpg"), album: "Kyoto", as: "c.jpg")
    }

    private func current(_ daemon: LiveDaemon) async throws -> String? {
        let r = try await daemon.ctl("session", "show", "pk", "--json")
        return ((try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:])["photo"] as? String
    }

    private func bottomRow(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map(String.init) ?? ""
    }

    @Test func nAndArrowsStepSpacePicksWithABadgeAndEscReturnsOnThePhotoSteppedTo() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("session", "new", "pk", "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Kyoto", session: "pk").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "a.jpg", session: "pk").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "pk", "--graphics", "symbols"])
        try await pick.press("p")
        try await pick.waitFor("the preview of a.jpg") { $0.contains(PickKeys.previewHelp) && $0.contains("1/3") }
        try await pick.press("n")
        try await pick.waitFor("b.jpg, second of three, current in the session") { screen in
            guard bottomRow(screen).contains("2/3") else { return false }
            return try await current(daemon) == "b.jpg"
        }
        try await pick.press("Space")
        let picked = try await pick.waitFor("the badge") { bottomRow($0).contains("✓1 picked") }
        #expect(bottomRow(picked).contains("1 of 10 picked"), "\(picked)")
        #expect(try await daemon.ctl("selection", "--json", session: "pk").stdoutText.contains("b.jpg"))
        try await pick.press("Right")
        let third = try await pick.waitFor("c.jpg, third of three") { bottomRow($0).contains("3/3") }
        #expect(!bottomRow(third).contains("✓1 picked"), "c.jpg is not picked:\n\(third)")
        try await pick.press("Left", "Left")
        try await pick.waitFor("back to a.jpg") { bottomRow($0).contains("1/3") }
        try await pick.press("n", "n")
        try await pick.waitFor("on to c.jpg") { bottomRow($0).contains("3/3") }
        try await pick.press("Escape")
        let panes = try await pick.waitFor("the panes back") { $0.contains("Albums") && !$0.contains(PickKeys.previewHelp) }
        let headings = panes.split(separator: "\n").dropFirst().first ?? ""
        #expect(headings.hasSuffix("c.jpg") || headings.contains(" c.jpg"), "the picture pane is on c.jpg:\n\(panes)")
        #expect(try await current(daemon) == "c.jpg")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
