import Foundation
import Testing

/// One real terminal: `pickerctl pick --graphics sixel` in xterm (`-ti vt340`, sixel) under Xvfb, and a
/// screenshot of the screen: the photo must be there, in the image pane, looking like the daemon's fitted PNG.
@Suite(.timeLimit(.minutes(15)), .enabled(if: XServer.toolsPresent, "needs Xvfb, xterm, xwd and xwdtopnm (scripts/install-deps.sh) and Pillow"))
struct PickXtermTests {
    @Test func sixelPictureOnAnXtermScreenIsTheFittedPhoto() async throws {
        let library = try await TemporaryLibrary()
        let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        try library.add(photo, album: "Trip", as: "falls.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "x", "--width", "300").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Trip", session: "x").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "falls.jpg", session: "x").exitCode == 0)

        let dir = daemon.directory
        let x = try await XServer(directory: dir)
        defer { x.stop() }
        let pidFile = dir.appendingPathComponent("pick.pid").path
        let script = "echo $$ > '\(pidFile)'; exec '\(TestEnvironment.pickerctl.path)' --socket '\(daemon.socketPath)' --session x pick --graphics sixel > /dev/null"
        let xterm = try spawnProcess(findExecutable("xterm") ?? "xterm",
                                     ["-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256", "-geometry", "120x40+0+0",
                                      "-e", "sh", "-c", script],
                                     environment: ["PATH": "/usr/bin:/bin", "DISPLAY": x.display, "HOME": dir.path],
                                     stdin: "/dev/null", stdout: dir.appendingPathComponent("xterm.log").path,
                                     stderr: dir.appendingPathComponent("xterm.log").path)
        defer {
            if let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                kill(pid, SIGTERM)
            }
            kill(xterm, SIGTERM)
            _ = waitForExit(xterm)
        }

        // pick sizes the session to its image pane; the reference is the daemon's PNG for that size.
        let reference = dir.appendingPathComponent("reference.png").path
        let shot = dir.appendingPathComponent("screen.ppm").path
        var match: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            await pause(300_000)
            let state = try await daemon.ctl("session", "show", "x", "--json")
            guard let s = try? JSONSerialization.jsonObject(with: state.stdout) as? [String: Any], s["width"] as? Int != 300 else { continue }
            guard try await daemon.ctl("get-image", "-o", reference, session: "x").exitCode == 0 else { continue }
            guard try await runProcess("/bin/sh", ["-c", "xwd -root -silent -display \(x.display) | xwdtopnm > '\(shot)' 2>/dev/null"]).exitCode == 0 else { continue }
            let r = try await runProcess(TestEnvironment.python, [TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/screenmatch.py").path, shot, reference])
            match = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
            if let mad = match["mad"] as? Double, let baseline = match["baseline"] as? Double, mad < baseline / 2 { break }
        }
        let mad = match["mad"] as? Double ?? 999, baseline = match["baseline"] as? Double ?? 0
        #expect(mad < baseline / 2, "the screen region matches the fitted PNG far better than a flat colour: \(match)")
        // The picture sits right of the two lists (the image pane), not over them.
        #expect((match["x"] as? Int ?? 0) > 120, "\(match)")
        let region = match["region_mean"] as? [Double] ?? [], expected = match["reference_mean"] as? [Double] ?? []
        #expect(region.count == 3 && expected.count == 3 && zip(region, expected).allSatisfy { abs($0 - $1) < 12 },
                "mean colours: screen \(region), PNG \(expected)")
    }
}

/// A private Xvfb server; its display number chosen by Xvfb itself (-displayfd).
final class XServer: @unchecked Sendable {
    static let toolsPresent = ["Xvfb", "xterm", "xwd", "xwdtopnm"].allSatisfy { findExecutable($0) != nil }
        && FileManager.default.fileExists(atPath: "/usr/bin/python3")
    let pid: pid_t
    let display: String
    /// Xvfb and the xterm on it: heavy children.
    private let slot: ChildSlots.Slot

    init(directory: URL, screen: String = "1024x768x24") async throws {
        slot = await ChildSlots.shared.acquire()
        let numberFile = directory.appendingPathComponent("display").path
        pid = try spawnProcess(findExecutable("Xvfb") ?? "Xvfb", ["-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp"],
                               environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: numberFile,
                               stderr: directory.appendingPathComponent("xvfb.log").path)
        var number = ""
        let deadline = Date().addingTimeInterval(60)
        while number.isEmpty && Date() < deadline {
            number = ((try? String(contentsOfFile: numberFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if number.isEmpty { await pause(25_000) }
        }
        display = ":" + number
        if number.isEmpty {
            kill(pid, SIGTERM)
            _ = waitForExit(pid)
            throw TmuxError.failed("Xvfb did not report a display on -displayfd within 60 s")
        }
    }

    func stop() {
        kill(pid, SIGTERM)
        _ = waitForExit(pid)
        slot.release()
    }
}
