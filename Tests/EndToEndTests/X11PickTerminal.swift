import Foundation
import Testing

/// `pickerctl pick --graphics sixel` in a real sixel terminal (xterm, mlterm) with its default settings, on a
/// private Xvfb large enough for a 300x90 xterm; screenshots, keys typed through XTEST.
final class X11PickTerminal {
    static let keysPresent = FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libXtst.so.6")
        || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libXtst.so.6")
    let daemon: LiveDaemon
    let x: XServer
    /// The terminal's process.
    let process: pid_t
    let pidFile: String
    let sizeFile: String
    private(set) var cell = (width: 6, height: 13)
    private(set) var screenWidth = 0
    private(set) var screenHeight = 0

    /// An xterm with its default resources but `resources` (`-xrm`), sixel on (`-ti vt340`).
    static func xterm(daemon: LiveDaemon, geometry: String, resources: [String] = []) async throws -> X11PickTerminal {
        try await X11PickTerminal(daemon: daemon) { script in
            (findExecutable("xterm") ?? "xterm", ["-ti", "vt340"] + resources.flatMap { ["-xrm", $0] } + ["-geometry", "\(geometry)+0+0", "-e", "sh", "-c", script])
        }
    }

    /// mlterm with its defaults (sixel is built in), `geometry` in cells.
    static func mlterm(daemon: LiveDaemon, geometry: String) async throws -> X11PickTerminal {
        try await X11PickTerminal(daemon: daemon) { script in
            (findExecutable("mlterm") ?? "mlterm", ["-g", "\(geometry)+0+0", "-e", "sh", "-c", script])
        }
    }

    /// - Parameter terminal: the terminal's program and arguments to run `script` in.
    init(daemon: LiveDaemon, terminal: (String) -> (String, [String])) async throws {
        self.daemon = daemon
        let dir = daemon.directory
        x = try await XServer(directory: dir, screen: "2048x1400x24")
        pidFile = dir.appendingPathComponent("pick.pid").path
        sizeFile = dir.appendingPathComponent("winsize").path
        // The terminal's own size report (rows, columns, pixels) tells where its cells are on screen.
        let winsize = "/usr/bin/python3 -c 'import fcntl,termios,struct; print(*struct.unpack(\"HHHH\", fcntl.ioctl(0, termios.TIOCGWINSZ, bytes(8))))' > '\(sizeFile)'"
        let script = "\(winsize); echo $$ > '\(pidFile)'; exec '\(TestEnvironment.pickerctl.path)' --socket '\(daemon.socketPath)' --session x pick --graphics sixel > /dev/null"
        let (program, arguments) = terminal(script)
        process = try spawnProcess(program, arguments,
                                 environment: ["PATH": "/usr/bin:/bin", "DISPLAY": x.display, "HOME": dir.path, "LC_ALL": "C.UTF-8"],
                                 stdin: "/dev/null", stdout: dir.appendingPathComponent("terminal.log").path,
                                 stderr: dir.appendingPathComponent("terminal.log").path)
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
        kill(process, SIGTERM)
        _ = waitForExit(process)
        x.stop()
    }

    private static func tool(_ name: String) -> String {
        TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/\(name)").path
    }
}
