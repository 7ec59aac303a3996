import Foundation
import Testing

/// Issue 24 item 10: a second real sixel terminal from Debian, mlterm with its default settings under
/// Xvfb. The screenshots must show the photo, the grid and the preview as pickerd drew them.
@Suite(.timeLimit(.minutes(15)),
       .enabled(if: XServer.toolsPresent && X11PickTerminal.keysPresent && findExecutable("mlterm") != nil,
                "needs Xvfb, mlterm, xwd, xwdtopnm, libXtst and Pillow"))
struct PickMltermTests {
    @Test func pictureGridAndPreviewShowInMlterm() async throws {
        let (daemon, library) = try await PickXtermDefaultTests.daemonWithTrip()
        _ = library
        let mlterm = try await X11PickTerminal.mlterm(daemon: daemon, geometry: "160x48")
        defer { mlterm.stop() }
        try await mlterm.waitForPick()

        let reference = daemon.directory.appendingPathComponent("reference.png").path
        try await PickXtermDefaultTests.reference(daemon, ["get-image", "-o", reference])
        let picture = try await mlterm.waitForMatch(reference)
        #expect(picture.matches, "the main picture is on screen: \(picture.report)")
        #expect(picture.x > mlterm.screenWidth * 35 / 100, "in the image pane, right of the lists: \(picture.report)")

        try await mlterm.type("g")
        let grid = daemon.directory.appendingPathComponent("grid.png").path
        try await PickXtermDefaultTests.reference(daemon, ["thumbnails", "--size", "100", "-o", grid])
        let shown = try await mlterm.waitForMatch(grid)
        #expect(shown.matches, "the thumbnail grid is on screen: \(shown.report)")

        try await mlterm.type("g", "p")
        let area = (left: 0, top: mlterm.cell.height, right: mlterm.screenWidth, bottom: mlterm.screenHeight - mlterm.cell.height)
        var cover: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            await pause(400_000)
            cover = try await mlterm.cover(area)
            if (cover["covered"] as? Double ?? 0) > 0.4 { break }
        }
        #expect(cover["covered"] as? Double ?? 0 > 0.4, "the preview fills most of the screen: \(cover)")
        guard let box = cover["box"] as? [Int], box.count == 4 else { return }
        let preview = daemon.directory.appendingPathComponent("preview.png").path
        try await PickXtermDefaultTests.reference(daemon, ["preview", "--width", String(box[2] - box[0]), "--height", String(box[3] - box[1]),
                                                           "-o", preview])
        let full = try await mlterm.waitForMatch(preview)
        #expect(full.matches, "the preview on screen is the photo: \(full.report)")
    }
}
