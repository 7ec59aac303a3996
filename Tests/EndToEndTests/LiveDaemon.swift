import Foundation

/// Output of one `pickerctl` run.
struct CommandResult: CustomStringConvertible {
    var exitCode: Int32
    var stdout: Data
    var stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var description: String { "exit \(exitCode), stdout: \(stdoutText.prefix(400)), stderr: \(stderr)" }
}

/// Runs a program to completion with stdout/stderr captured through files (no pipe deadlocks on big
/// output). posix_spawn + waitpid rather than Foundation's Process, whose exit monitoring was seen to
/// miss a child's exit here; signals are unblocked and reset to default in the child.
func runProcess(_ executable: String, _ args: [String], environment: [String: String]? = nil,
                stdin: Data? = nil) throws -> CommandResult {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pkrun-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let outPath = dir.appendingPathComponent("out").path
    let errPath = dir.appendingPathComponent("err").path
    var inPath = "/dev/null"
    if let stdin {
        inPath = dir.appendingPathComponent("in").path
        try stdin.write(to: URL(fileURLWithPath: inPath))
    }
    let pid = try spawnProcess(executable, args, environment: environment, stdin: inPath, stdout: outPath, stderr: errPath)
    let exitCode = waitForExit(pid)
    return CommandResult(exitCode: exitCode, stdout: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(),
                         stderr: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self))
}

/// Starts a program with its standard streams on files (stdout/stderr appended to when `append`); returns its pid.
func spawnProcess(_ executable: String, _ args: [String], environment: [String: String]?, stdin inPath: String,
                  stdout outPath: String, stderr errPath: String, append: Bool = false) throws -> pid_t {
    let mode = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, mode, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, mode, 0o600)
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attr, &noSignals)
    posix_spawnattr_setsigdefault(&attr, &allSignals)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { env.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, &attr, argv, env)
    guard rc == 0 else { throw SpawnError.failed(executable, rc) }
    return pid
}

/// Waits for a child; its exit code, or 128 + the signal that ended it.
func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: the macros are not imported.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// Whether a child is still running (reaps it if it has exited, keeping its code).
func isRunning(_ pid: pid_t, exitCode: inout Int32?) -> Bool {
    var status: Int32 = 0
    let r = waitpid(pid, &status, WNOHANG)
    if r == pid {
        exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return false
    }
    return r == 0
}

enum SpawnError: Error { case failed(String, Int32) }

/// A real `pickerd` process on a private socket, library and state folder.
final class LiveDaemon: @unchecked Sendable {
    let directory: URL
    let socketPath: String
    let library: URL
    let stateDirectory: URL
    private(set) var pid: pid_t = 0
    private var exited: Int32? = nil
    let logURL: URL
    let extraArguments: [String]
    let extraEnvironment: [String: String]

    /// Starts pickerd on `library` and waits until it answers `ping`.
    init(library: URL, extraArguments: [String] = [], stateDirectory: URL? = nil,
         extraEnvironment: [String: String] = [:]) throws {
        // Short path: Unix socket paths must fit in 107 bytes.
        directory = URL(fileURLWithPath: "/tmp/pk-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("s.sock").path
        self.library = library
        self.stateDirectory = stateDirectory ?? directory.appendingPathComponent("state")
        self.extraArguments = extraArguments
        self.extraEnvironment = extraEnvironment
        logURL = directory.appendingPathComponent("pickerd.log")
        try start()
    }

    func start() throws {
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        // A private cache home: shared thumbnails written by tests never land in the user's ~/.cache.
        let env = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_CACHE_HOME": cacheHome.path]
            .merging(extraEnvironment) { _, extra in extra }
        exited = nil
        pid = try spawnProcess(TestEnvironment.pickerd.path,
                               ["--library", library.path, "--socket", socketPath, "--state-dir", stateDirectory.path] + extraArguments,
                               environment: env, stdin: "/dev/null", stdout: logURL.path, stderr: logURL.path, append: true)
        for _ in 0..<800 {  // up to 20 s: a debug pickerd on 2 busy cores
            // The daemon answers at once and scans in the background: tests start from a scanned library.
            if let r = try? ctl("ping"), r.exitCode == 0, let w = try? ctl("library", "--wait"), w.exitCode == 0 { return }
            if !isRunning(pid, exitCode: &exited) { break }
            usleep(25_000)
        }
        throw DaemonError.didNotStart(log: self.log)
    }

    /// Where this daemon's freedesktop thumbnails go (`$XDG_CACHE_HOME`).
    var cacheHome: URL { directory.appendingPathComponent("cache") }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Runs the built pickerctl against this daemon.
    func ctl(_ args: String..., session: String? = nil) throws -> CommandResult {
        try ctl(args: args, session: session)
    }

    func ctl(args: [String], session: String? = nil) throws -> CommandResult {
        var full = ["--socket", socketPath]
        if let session { full += ["--session", session] }
        return try runProcess(TestEnvironment.pickerctl.path, full + args, environment: ["PATH": "/usr/bin:/bin"])
    }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    func stop(signal sig: Int32 = SIGTERM) -> Int32 {
        guard pid > 0, isRunning(pid, exitCode: &exited) else { return exited ?? 0 }
        kill(pid, sig)
        exited = waitForExit(pid)
        return exited ?? 0
    }

    deinit {
        if pid > 0, isRunning(pid, exitCode: &exited) {
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

enum DaemonError: Error, CustomStringConvertible {
    case didNotStart(log: String)
    var description: String {
        switch self {
        case .didNotStart(let log): return "pickerd did not start; log:\n\(log)"
        }
    }
}

/// A temporary library folder, removed when released.
final class TemporaryLibrary: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pklib-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Copies `source` into `album/name` (album "" = the root).
    @discardableResult
    func add(_ source: URL, album: String, as name: String? = nil) throws -> URL {
        let dir = album.isEmpty ? url : url.appendingPathComponent(album)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let dest = dir.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: dest)
        return dest
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
