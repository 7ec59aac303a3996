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
                stdin: Data? = nil) async throws -> CommandResult {
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
    let exitCode = await exitStatus(of: pid)
    return CommandResult(exitCode: exitCode, stdout: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(),
                         stderr: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self))
}

/// Starts a program with its standard streams on files (stdout/stderr appended to when `append`); returns its pid.
func spawnProcess(_ executable: String, _ args: [String], environment: [String: String]?, stdin inPath: String,
                  stdout outPath: String, stderr errPath: String, append: Bool = false,
                  passing passed: [(from: Int32, as: Int32)] = []) throws -> pid_t {
    let mode = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, mode, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, mode, 0o600)
    for fd in passed { posix_spawn_file_actions_adddup2(&actions, fd.from, fd.as) }
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

/// `runProcess` for where no task can wait: static initialisers and `defer` clean-ups. It holds a
/// pool thread while the child runs, so keep it to quick commands.
func runProcessBlocking(_ executable: String, _ args: [String]) throws -> CommandResult {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pkrun-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let outPath = dir.appendingPathComponent("out").path
    let pid = try spawnProcess(executable, args, environment: nil, stdin: "/dev/null", stdout: outPath, stderr: "/dev/null")
    let exitCode = waitForExit(pid)
    return CommandResult(exitCode: exitCode, stdout: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(), stderr: "")
}

/// Waits for a child without holding a thread of the cooperative pool (Swift Testing runs every
/// test on it, two threads on two cores): a plain thread blocks in waitpid and resumes the task.
func exitStatus(of pid: pid_t) async -> Int32 {
    await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
        Thread.detachNewThread { done.resume(returning: waitForExit(pid)) }
    }
}

/// Sleeps without holding a pool thread (tests poll with this, never with usleep).
func pause(_ microseconds: UInt32) async {
    try? await Task.sleep(nanoseconds: UInt64(microseconds) * 1_000)
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
    /// Held from before the first start until this object is released (a restart keeps it).
    private let slot: ChildSlots.Slot

    /// Starts pickerd on `library` and waits until its first scan has ended.
    init(library: URL, extraArguments: [String] = [], stateDirectory: URL? = nil,
         extraEnvironment: [String: String] = [:]) async throws {
        // Short path: Unix socket paths must fit in 107 bytes.
        directory = URL(fileURLWithPath: "/tmp/pk-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("s.sock").path
        self.library = library
        self.stateDirectory = stateDirectory ?? directory.appendingPathComponent("state")
        self.extraArguments = extraArguments
        self.extraEnvironment = extraEnvironment
        logURL = directory.appendingPathComponent("pickerd.log")
        // The deadlines in start() begin after this: a test queued behind others is not charged.
        slot = await ChildSlots.shared.acquire()
        try await start()
    }

    /// Starts pickerd and waits for its `--ready-fd` lines: the socket listens and the first scan
    /// has ended (tests start from a scanned library). Each wait has its own deadline.
    func start() async throws {
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        // A private cache home: shared thumbnails written by tests never land in the user's ~/.cache.
        let env = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_CACHE_HOME": cacheHome.path]
            .merging(extraEnvironment) { _, extra in extra }
        exited = nil
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0,
              fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else { throw DaemonError.didNotStart(waitingFor: "a pipe", log: "") }
        defer { close(ends[0]) }
        do {
            defer { close(ends[1]) }
            pid = try spawnProcess(TestEnvironment.pickerd.path,
                                   ["--library", library.path, "--socket", socketPath, "--state-dir", stateDirectory.path,
                                    "--ready-fd", "3"] + extraArguments,
                                   environment: env, stdin: "/dev/null", stdout: logURL.path, stderr: logURL.path,
                                   append: true, passing: [(ends[1], 3)])
        }
        var ready = ReadyLines(fd: ends[0])
        // A debug pickerd on two busy cores: generous, and each names what it waited for.
        try await ready.wait(for: "listening", seconds: 30, daemon: self)
        try await ready.wait(for: "scanned", seconds: 60, daemon: self)
    }

    /// Whether the process is still running (reaps it, keeping its code, if it ended).
    var isAlive: Bool { pid > 0 && isRunning(pid, exitCode: &exited) }

    /// Where this daemon's freedesktop thumbnails go (`$XDG_CACHE_HOME`).
    var cacheHome: URL { directory.appendingPathComponent("cache") }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Runs the built pickerctl against this daemon.
    func ctl(_ args: String..., session: String? = nil) async throws -> CommandResult {
        try await ctl(args: args, session: session)
    }

    func ctl(args: [String], session: String? = nil) async throws -> CommandResult {
        var full = ["--socket", socketPath]
        if let session { full += ["--session", session] }
        return try await runProcess(TestEnvironment.pickerctl.path, full + args, environment: ["PATH": "/usr/bin:/bin"])
    }

    /// `stop()` for a `defer`: SIGTERM and a blocking wait.
    func stopBlocking() {
        guard pid > 0, isRunning(pid, exitCode: &exited) else { return }
        kill(pid, SIGTERM)
        exited = waitForExit(pid)
    }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    func stop(signal sig: Int32 = SIGTERM) async -> Int32 {
        guard pid > 0, isRunning(pid, exitCode: &exited) else { return exited ?? 0 }
        kill(pid, sig)
        exited = await exitStatus(of: pid)
        return exited ?? 0
    }

    deinit {
        if pid > 0, isRunning(pid, exitCode: &exited) {
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
        }
        try? FileManager.default.removeItem(at: directory)
        slot.release()
    }
}

enum DaemonError: Error, CustomStringConvertible {
    case didNotStart(waitingFor: String, log: String)
    var description: String {
        switch self {
        case .didNotStart(let what, let log): return "pickerd did not report \(what); log:\n\(log.suffix(4000))"
        }
    }
}

/// The lines pickerd writes to `--ready-fd`, read from a non-blocking pipe between pauses.
struct ReadyLines {
    let fd: Int32
    private var seen = ""

    init(fd: Int32) { self.fd = fd }

    /// Returns once `line` has arrived; throws, naming it, after `seconds` or when pickerd ends first.
    mutating func wait(for line: String, seconds: Double, daemon: LiveDaemon) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !seen.split(separator: "\n").contains(Substring(line)) {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { seen += String(decoding: buffer[0..<n], as: UTF8.self); continue }
            let ended = n == 0 || !daemon.isAlive
            if ended || Date() > deadline {
                let why = ended ? "'\(line)' (it ended first)" : "'\(line)' within \(Int(seconds)) s"
                throw DaemonError.didNotStart(waitingFor: why, log: daemon.log)
            }
            await pause(20_000)
        }
    }
}

/// A temporary library folder, removed when released.
final class TemporaryLibrary: @unchecked Sendable {
    let url: URL

    init() async throws {
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
