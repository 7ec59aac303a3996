import Foundation
import Testing

/// `pickerctl pick` shows the photos the daemon marked broken (a truncated JPEG, after one failed
/// decode) in its photo list, keeps the marks current from library events, and shows the daemon's
/// refusal when Space tries to pick one: tmux, a live daemon, the real pickerctl.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickBrokenPhotoTests {
    static let truncated = "sharp_truncated.jpg"
    static let good = "good.jpg"
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A", as: Self.good)
        try library.add(corpus.appendingPathComponent("jpeg-broken/\(Self.truncated)"), album: "A")
        // No prefetch: selecting album A would render its first thumbnail page in the background,
        // decode the truncated photo and mark it before the test looks ("not marked before").
        daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch"])
    }

    /// One failed `get-image` of the truncated photo, on a session of its own, marks it broken.
    private func markBroken(session: String) async throws {
        await #expect(try daemon.ctl("session", "new", session, "--width", "400").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: session).exitCode == 0)
        await #expect(try daemon.ctl("select-photo", Self.truncated, session: session).exitCode == 0)
        let failed = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: session)
        #expect(failed.exitCode == 1, "\(failed)")
    }

    /// The photo-list cell (between the first two `│`) that lists `name`; the image pane may name it too.
    private static func row(_ screen: String, _ name: String) -> String {
        for line in screen.split(separator: "\n") {
            let cells = line.split(separator: "│", omittingEmptySubsequences: false)
            if cells.count >= 2, cells[1].contains(name) { return String(cells[1]) }
        }
        return ""
    }

    private static func isMarked(_ screen: String, _ name: String) -> Bool {
        row(screen, name).contains(PickMarks.broken + " ")
    }

    private func selectionCount(_ session: String) async throws -> Int? {
        let r = try await daemon.ctl("status", "--json", session: session)
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["selection_count"] as? Int
    }

    @Test func knownBrokenPhotoIsMarkedInThePhotoListAndSpaceOnItShowsTheDaemonsRefusal() async throws {
        try await markBroken(session: "b")
        // pick on that session: album A open, the truncated photo current, focus in the photo list.
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "b", "--graphics", "none"])
        let screen = try await pick.waitFor("both rows") { $0.contains(Self.good) && $0.contains(Self.truncated) }
        #expect(Self.isMarked(screen, Self.truncated), "\(screen)")
        #expect(!Self.isMarked(screen, Self.good), "\(screen)")
        #expect(screen.split(separator: "\n").first?.contains("cannot be shown:") == true, "the message names the reason:\n\(screen)")
        // The mark is drawn in red (SGR 31), not only as a character.
        let coloured = await Self.row(try pick.screen(escapes: true), Self.truncated)
        #expect(coloured.contains("31m") || coloured.contains(";31"), "\(coloured.debugDescription)")

        try await pick.press("Space")
        let refused = try await pick.waitFor("the daemon's refusal") { $0.contains("cannot pick '\(Self.truncated)'") }
        #expect(refused.contains("0 of 10 picked"), "\(refused)")
        await #expect(try selectionCount("b") == 0)
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func photoFoundBrokenWhilePickIsOpenGetsItsMarkFromTheLibraryEvent() async throws {
        // --graphics none: pick itself never decodes, so only the other session's failure marks it.
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "p", "--graphics", "none"])
        try await pick.press("j", "Enter")
        let before = try await pick.waitFor("album A's photos") { $0.contains(Self.good) && $0.contains(Self.truncated) }
        #expect(!Self.isMarked(before, Self.truncated), "not marked before anything decoded it:\n\(before)")

        try await markBroken(session: "other")
        let after = try await pick.waitFor("the mark from the libraryChangesEvent") { Self.isMarked($0, Self.truncated) }
        #expect(!Self.isMarked(after, Self.good), "\(after)")
        // Its row was re-read in place: the list and the cursor stayed as they were.
        #expect(after.contains("Photos (2)"), "\(after)")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func brokenPhotoReplacedOnDiskByAGoodOneLosesItsMarkInAnOpenPick() async throws {
        try await markBroken(session: "b")
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "b", "--graphics", "none"])
        try await pick.waitFor("the mark") { Self.isMarked($0, Self.truncated) }
        // Written again (new size and mtime) through a rename, as a copy tool does: a new version of the file.
        let good = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        let replacement = library.url.appendingPathComponent("A/.incoming")
        try FileManager.default.copyItem(at: good, to: replacement)
        #expect(rename(replacement.path, library.url.appendingPathComponent("A/\(Self.truncated)").path) == 0)
        try await pick.waitFor("the mark gone") { !Self.isMarked($0, Self.truncated) && $0.contains(Self.truncated) }
        // The current photo's message follows: its size instead of the reason.
        try await pick.waitFor("the new message") { $0.split(separator: "\n").first?.contains("1800x1200 px") == true }
        try await pick.press("Space")
        try await pick.waitFor("the pick") { $0.contains("1 of 10 picked") }
        await #expect(try selectionCount("b") == 1)
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func photoPickFailsToDrawIsMarkedThenRefusedWhenPicked() async throws {
        // symbols: pick's own get-image of the current photo is the failed decode.
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "s", "--graphics", "symbols"])
        try await pick.press("j", "Enter")
        try await pick.waitFor("album A's photos") { $0.contains(Self.good) && $0.contains(Self.truncated) }
        try await pick.press("j")
        // The mark (a library event) and the message line (the failed picture's reply) come apart.
        _ = try await pick.waitFor("the mark and the reason after pick's own failed decode") {
            Self.isMarked($0, Self.truncated) && $0.split(separator: "\n").first?.contains("cannot be shown:") == true
        }
        try await pick.press("Space")
        try await pick.waitFor("the daemon's refusal") { $0.contains("cannot pick '\(Self.truncated)'") }
        await #expect(try selectionCount("s") == 0)
        try await pick.press("Escape")
        await #expect(try pick.waitForExit().code == 3)
    }
}

/// The marks pick draws, as the tests look for them (the same characters as PickGlyphs.unicode).
enum PickMarks {
    static let broken = "✗"
}
