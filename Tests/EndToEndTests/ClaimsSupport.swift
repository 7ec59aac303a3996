import Foundation
import PickerProtocol
import PickerSystem

/// Pictures made and read by Pillow (Tests/tools/claimimages.py) for the README-claims tests.
enum ClaimImages {
    static var script: String { TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/claimimages.py").path }

    private static func run(_ args: [String]) async throws -> CommandResult {
        let r = try await runProcess(TestEnvironment.python, [script] + args)
        guard r.exitCode == 0 else { throw ImageCheck.CheckError.failed("claimimages \(args): \(r.stderr)") }
        return r
    }

    /// A solid-colour picture of `width`x`height`; the format follows the extension.
    static func solid(_ file: URL, width: Int, height: Int, rgb: (Int, Int, Int)) async throws {
        _ = try await run(["solid", file.path, "\(width)", "\(height)", "\(rgb.0)", "\(rgb.1)", "\(rgb.2)"])
    }

    /// A grey JPEG whose EXIF DateTimeOriginal is `date` ("YYYY:MM:DD HH:MM:SS").
    static func dated(_ file: URL, width: Int, height: Int, date: String) async throws {
        _ = try await run(["dated", file.path, "\(width)", "\(height)", date])
    }

    /// The RGB of each pixel (x, y).
    static func pixels(_ file: URL, _ points: [[Int]]) async throws -> [[Int]] {
        let json = String(decoding: try JSONEncoder().encode(points), as: UTF8.self)
        return try await JSONDecoder().decode([[Int]].self, from: try run(["pixels", file.path, json]).stdout)
    }
}

/// Whether Debian's Python with Pillow is there (the claims tests that judge pictures need it).
let pillowAvailable: Bool = {
    (try? runProcessBlocking(TestEnvironment.python, ["-c", "import PIL"]).exitCode) == 0
}()


/// Polls `condition` every 25 ms for at most `seconds`; whether it became true (a bound, not a timing check).
func eventually(within seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        await pause(25_000)
    }
    return try await condition()
}

/// A `pickerd` started exactly as given (no `--socket`, `--library` or `--state-dir` added), for
/// the claims about its defaults; optionally as another uid through setpriv. Killed when released.
final class BareDaemon {
    let pid: pid_t
    let logURL: URL
    private var exitCode: Int32?
    /// Held until this object is released.
    private let slot: ChildSlots.Slot

    /// - Parameters:
    ///   - asUID: run as this uid and gid (`setpriv --reuid --regid --clear-groups`); needs root.
    ///   - logDirectory: where `pickerd.log` goes (stdout and stderr).
    init(arguments: [String], environment: [String: String], asUID: uid_t? = nil, logDirectory: URL) async throws {
        slot = await ChildSlots.shared.acquire()
        logURL = logDirectory.appendingPathComponent("pickerd-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        if let asUID { chown(logURL.path, asUID, asUID) }
        let (exe, args) = BareDaemon.command(TestEnvironment.pickerd.path, arguments, asUID: asUID)
        pid = try spawnProcess(exe, args, environment: environment, stdin: "/dev/null", stdout: logURL.path,
                               stderr: logURL.path, append: true)
    }

    /// The executable and arguments that run `program` as `uid` (or as we are).
    static func command(_ program: String, _ arguments: [String], asUID uid: uid_t?) -> (String, [String]) {
        guard let uid else { return (program, arguments) }
        return ("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", program] + arguments)
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    var isRunning: Bool { EndToEndTests.isRunning(pid, exitCode: &exitCode) }

    /// SIGTERM and wait; the exit code.
    func stop() -> Int32 {
        guard isRunning else { return exitCode ?? -1 }
        kill(pid, SIGTERM)
        exitCode = waitForExit(pid)
        return exitCode ?? -1
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
        }
        slot.release()
    }
}

/// Runs pickerctl with exactly `environment` (no `--socket` added), optionally as another uid.
func bareCtl(_ args: [String], environment: [String: String], asUID: uid_t? = nil) async throws -> CommandResult {
    let (exe, full) = BareDaemon.command(TestEnvironment.pickerctl.path, args, asUID: asUID)
    return try await runProcess(exe, full, environment: environment)
}

/// A short private folder under /tmp (socket paths must fit in 107 bytes), removed when released.
final class ScratchDirectory {
    let url: URL
    init() async throws {
        url = URL(fileURLWithPath: "/tmp/pkc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}
