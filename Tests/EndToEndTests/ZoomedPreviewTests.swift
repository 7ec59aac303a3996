import Foundation
import Testing

/// `preview --zoom` (PROTOCOL.md, "Zoom (1:1)"; issue 24 item 4) through pickerctl and a live daemon:
/// the window is the upright photo at full size, where the reply says, kept inside the photo.
@Suite(.timeLimit(.minutes(15)), .enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to judge the pictures"))
struct ZoomedPreviewTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        // Stored 1200x1800 with EXIF orientation 6: upright 1800x1200, so a wrong turn shows.
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_6.jpg"), album: "Trip")
        daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "z", "--width", "300").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Trip", session: "z").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "Landscape_6.jpg", session: "z").exitCode == 0)
    }

    private func zoomed(_ out: URL, _ size: (Int, Int), at point: String) async throws -> [String: Int] {
        let r = try await daemon.ctl("--json", "-o", out.path, "preview", "--width", "\(size.0)", "--height", "\(size.1)",
                                     "--zoom", point, session: "z")
        #expect(r.exitCode == 0, "\(r)")
        let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
        return json["zoom"] as? [String: Int] ?? [:]
    }

    @Test func theTopRightCornerAt1To1IsThatCornerOfTheUprightPhoto() async throws {
        let out = daemon.directory.appendingPathComponent("corner.png")
        let window = try await zoomed(out, (800, 600), at: "1,0")
        #expect(window == ["left": 1000, "top": 0, "width": 800, "height": 600, "photo_width": 1800, "photo_height": 1200])
        let info = try await ImageCheck.info(out)
        #expect(info.width == 800 && info.height == 600)
        let source = library.url.appendingPathComponent("Trip/Landscape_6.jpg")
        let same = try await ImageCheck.comparison(out, source, upright: true, crop: [1000, 0, 800, 600])
        #expect(same.mad < 3, "against Pillow's upright crop: \(same)")
        // Not the fitted preview, and not the crop of the photo as stored (unturned).
        let middle = try await ImageCheck.comparison(out, source, upright: true, crop: [500, 300, 800, 600])
        #expect(middle.mad > same.mad + 5, "the middle of the photo is another picture: \(middle) vs \(same)")
    }

    @Test func aScreenWiderThanThePhotoShowsItsWholeWidthOnBlack() async throws {
        let out = daemon.directory.appendingPathComponent("wide.png")
        let window = try await zoomed(out, (2000, 400), at: "0.5,0.5")
        #expect(window == ["left": 0, "top": 400, "width": 1800, "height": 400, "photo_width": 1800, "photo_height": 1200])
        let m = try await ImageCheck.regions(out, [[0, 0, 98, 400], [1902, 0, 98, 400], [100, 0, 1800, 400]])
        #expect(m[0] < 1 && m[1] < 1 && m[2] > 30, "100 px black bars either side of the photo's full width: \(m)")
        // Past an edge is the edge: a bad point is refused before the daemon is asked.
        let bad = try await daemon.ctl("-o", out.path, "preview", "--zoom", "1.5,0", session: "z")
        #expect(bad.exitCode == 2 && bad.stderr.contains("--zoom takes X,Y"), "\(bad)")
    }
}
