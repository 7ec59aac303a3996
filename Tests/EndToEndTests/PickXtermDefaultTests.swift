import Foundation
import Testing

/// Issue 24 item 1: a default xterm (`-ti vt340`, no maxGraphicSize: it draws no sixel larger than
/// 1000x1000) at sizes where pick's panes are larger than that. pick must ask the terminal
/// (XTSMGRAPHICS) and fit its pictures; the screenshots must show the photo, the grid and the preview.
@Suite(.timeLimit(.minutes(15)), .enabled(if: XServer.toolsPresent && DefaultXterm.keysPresent, "needs Xvfb, xterm, xwd, xwdtopnm, libXtst and Pillow"))
struct PickXtermDefaultTests {
    @Test func pictureAndGridShowInADefaultXtermOf300x90() async throws {
        let (daemon, library) = try await Self.daemonWithTrip()
        _ = library
        let xterm = try await DefaultXterm(daemon: daemon, geometry: "300x90")
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
        let xterm = try await DefaultXterm(daemon: daemon, geometry: "300x90", resources: ["XTerm*maxGraphicSize: 4096x4096"])
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
        let xterm = try await DefaultXterm(daemon: daemon, geometry: "200x60")
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

/// `pickerctl pick --graphics sixel` in an xterm with its default resources, on a private Xvfb large
/// enough for a 300x90 window; screenshots, keys typed through XTEST.
final class DefaultXterm {
    static let keysPresent = FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libXtst.so.6")
        || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libXtst.so.6")
    let daemon: LiveDaemon
    let x: XServer
    let xterm: pid_t
    let pidFile: String
    let sizeFile: String
    private(set) var cell = (width: 6, height: 13)
    private(set) var screenWidth = 0
    private(set) var screenHeight = 0

    /// - Parameter resources: X resources (`-xrm`) beyond xterm's defaults; none by default.
    init(daemon: LiveDaemon, geometry: String, resources: [String] = []) async throws {
        self.daemon = daemon
        let dir = daemon.directory
        x = try await XServer(directory: dir, screen: "2048x1400x24")
        pidFile = dir.appendingPathComponent("pick.pid").path
        sizeFile = dir.appendingPathComponent("winsize").path
        // The terminal's own size report (rows, columns, pixels) tells where its cells are on screen.
        let winsize = "/usr/bin/python3 -c 'import fcntl,termios,struct; print(*struct.unpack(\"HHHH\", fcntl.ioctl(0, termios.TIOCGWINSZ, bytes(8))))' > '\(sizeFile)'"
        let script = "\(winsize); echo $$ > '\(pidFile)'; exec '\(TestEnvironment.pickerctl.path)' --socket '\(daemon.socketPath)' --session x pick --graphics sixel > /dev/null"
        xterm = try spawnProcess(findExecutable("xterm") ?? "xterm", ["-ti", "vt340"] + resources.flatMap { ["-xrm", $0] } + ["-geometry", "\(geometry)+0+0", "-e", "sh", "-c", script],
                                 environment: ["PATH": "/usr/bin:/bin", "DISPLAY": x.display, "HOME": dir.path, "LC_ALL": "C.UTF-8"],
                                 stdin: "/dev/null", stdout: dir.appendingPathComponent("xterm.log").path,
                                 stderr: dir.appendingPathComponent("xterm.log").path)
    }

    /// Until pick has sized the session (its first picture is then on the way).
    func waitForPick() async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            await pause(300_000)
            let numbers = ((try? String(contentsOfFile: sizeFile, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if numbers.count == 4, numbers[0] > 0, numbers[1] > 0, numbers[2] > 0 {
                cell = (numbers[2] / numbers[1], numbers[3] / numbers[0])
                screenWidth = numbers[2]
                screenHeight = numbers[3]
            }
            let state = try await daemon.ctl("session", "show", "x", "--json")
            if screenWidth > 0, let s = try? JSONSerialization.jsonObject(with: state.stdout) as? [String: Any], s["width"] as? Int != 300 { return }
        }
        Issue.record("pick did not size the session within 60 s")
    }

    func type(_ keys: String...) async throws {
        let r = try await runProcess(TestEnvironment.python, [Self.tool("xkeys.py"), x.display, "50", "50"] + keys)
        #expect(r.exitCode == 0, "\(r)")
    }

    func screenshot() async throws -> String {
        let shot = daemon.directory.appendingPathComponent("screen.ppm").path
        let r = try await runProcess("/bin/sh", ["-c", "xwd -root -silent -display \(x.display) | xwdtopnm > '\(shot)' 2>/dev/null"])
        #expect(r.exitCode == 0, "\(r)")
        return shot
    }

    /// Screenshots until `reference` is found on screen far better than a flat colour (or 40 s pass).
    func waitForMatch(_ reference: String) async throws -> (matches: Bool, x: Int, report: [String: Any]) {
        var match: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline {
            await pause(400_000)
            let r = try await runProcess(TestEnvironment.python, [Self.tool("screenmatch.py"), try screenshot(), reference])
            match = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
            if Self.matches(match) { break }
        }
        return (Self.matches(match), match["x"] as? Int ?? 0, match)
    }

    /// The place found is the picture: far closer than a flat colour, and the same mean colour.
    static func matches(_ match: [String: Any]) -> Bool {
        let mad = match["mad"] as? Double ?? 999, baseline = match["baseline"] as? Double ?? 0
        let region = match["region_mean"] as? [Double] ?? [], expected = match["reference_mean"] as? [Double] ?? []
        return mad < baseline / 2 && region.count == 3 && expected.count == 3 && zip(region, expected).allSatisfy { abs($0 - $1) < 12 }
    }

    func cover(_ area: (left: Int, top: Int, right: Int, bottom: Int)) async throws -> [String: Any] {
        let r = try await runProcess(TestEnvironment.python, [Self.tool("panecover.py"), try screenshot(),
                                                        String(area.left), String(area.top), String(area.right), String(area.bottom)])
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    func stop() {
        if let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGTERM)
        }
        kill(xterm, SIGTERM)
        _ = waitForExit(xterm)
        x.stop()
    }

    private static func tool(_ name: String) -> String {
        TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/\(name)").path
    }
}
