import Foundation
import Testing

/// Issue 24 item 1: a default xterm (`-ti vt340`, no maxGraphicSize: it draws no sixel larger than
/// 1000x1000) at sizes where pick's panes are larger than that. pick must ask the terminal
/// (XTSMGRAPHICS) and fit its pictures; the screenshots must show the photo, the grid and the preview.
@Suite(.timeLimit(.minutes(15)), .enabled(if: XServer.toolsPresent && X11PickTerminal.keysPresent, "needs Xvfb, xterm, xwd, xwdtopnm, libXtst and Pillow"))
struct PickXtermDefaultTests {
    @Test func pictureAndGridShowInADefaultXtermOf300x90() async throws {
        let (daemon, library) = try await Self.daemonWithTrip()
        _ = library
        let xterm = try await X11PickTerminal.xterm(daemon: daemon, geometry: "300x90")
        defer { xterm.stop() }
        try await xterm.waitForPick()

        let reference = daemon.directory.appendingPathComponent("reference.png").path
        try await Self.reference(daemon, ["get-image", "-o", reference])
        let picture = try await xterm.waitForMatch(reference)
        #expect(picture.matches, "the main picture is on screen: \(picture.report)")
        #expect(picture.x > xterm.screenWidth * 35 / 100, "in the image pane, right of the lists: \(picture.report)")

        try await xterm.type("g")
        let grid = daemon.directory.appendingPathComponent("grid.png").path
        try await Self.reference(daemon, ["thumbnails", "--size", "100", "-o", grid])
        let shown = try await xterm.waitForMatch(grid)
        #expect(shown.matches, "the thumbnail grid is on screen: \(shown.report)")
    }

    /// With `maxGraphicSize: 4096x4096` xterm says so, and pick draws the picture at the full pane size:
    /// the limit is the terminal's answer, not a constant.
    @Test func anEnlargedXtermGetsThePictureAtTheFullPaneSize() async throws {
        let (daemon, library) = try await Self.daemonWithTrip()
        _ = library
        let xterm = try await X11PickTerminal.xterm(daemon: daemon, geometry: "300x90", resources: ["XTerm*maxGraphicSize: 4096x4096"])
        defer { xterm.stop() }
        try await xterm.waitForPick()
        let state = try await daemon.ctl("session", "show", "x", "--json")
        let pane = (try? JSONSerialization.jsonObject(with: state.stdout) as? [String: Any]) ?? [:]
        #expect(pane["width"] as? Int ?? 0 > 1000, "the pane is not cut to xterm's default 1000x1000: \(pane)")
        let reference = daemon.directory.appendingPathComponent("reference.png").path
        try await Self.reference(daemon, ["get-image", "-o", reference])
        let picture = try await xterm.waitForMatch(reference)
        #expect(picture.matches, "the main picture is on screen: \(picture.report)")
    }

    @Test func previewShowsInADefaultXtermOf200x60() async throws {
        let (daemon, library) = try await Self.daemonWithTrip()
        _ = library
        let xterm = try await X11PickTerminal.xterm(daemon: daemon, geometry: "200x60")
        defer { xterm.stop() }
        try await xterm.waitForPick()
        try await xterm.type("p")
        // The preview covers the screen below the header: whatever size pick chose, the picture's
        // extent on screen says which preview to compare it with.
        let area = (left: 0, top: xterm.cell.height, right: xterm.screenWidth, bottom: xterm.screenHeight - xterm.cell.height)
        var cover: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            await pause(400_000)
            cover = try await xterm.cover(area)
            if (cover["covered"] as? Double ?? 0) > 0.4 { break }
        }
        let covered = cover["covered"] as? Double ?? 0
        #expect(covered > 0.4, "the preview fills most of the screen, not a blank one: \(cover)")
        guard let box = cover["box"] as? [Int], box.count == 4 else { return }
        let reference = daemon.directory.appendingPathComponent("preview.png").path
        try await Self.reference(daemon, ["preview", "--width", String(box[2] - box[0]), "--height", String(box[3] - box[1]),
                                          "-o", reference])
        let match = try await xterm.waitForMatch(reference)
        #expect(match.matches, "the preview on screen is the photo: \(match.report)")
    }

    /// Writes the daemon's picture for session `x` (the reference the screen must show). pick asks
    /// pictures of the same session while it draws, and a newer image request on a session
    /// supersedes an older one: a superseded reference is asked again.
    static func reference(_ daemon: LiveDaemon, _ args: [String]) async throws {
        var last: CommandResult?
        for _ in 0..<20 {
            let r = try await daemon.ctl(args: args, session: "x")
            if r.exitCode == 0 { return }
            last = r
            guard r.stderr.contains("superseded") else { break }
            await pause(250_000)
        }
        Issue.record("\(args): \(last.map { "\($0)" } ?? "")")
    }

    /// A daemon with one album of a landscape photo, and session `x` on it (the size is pick's to set).
    static func daemonWithTrip() async throws -> (LiveDaemon, TemporaryLibrary) {
        let library = try await TemporaryLibrary()
        let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        try library.add(photo, album: "Trip", as: "falls.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "x", "--width", "300").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Trip", session: "x").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "falls.jpg", session: "x").exitCode == 0)
        return (daemon, library)
    }
}
