import Foundation

/// Output of one `pickerctl` run.
struct CommandResult: CustomStringConvertible {
    var exitCode: Int32
    var stdout: Data
    var stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var description: String { "exit \(exitCode), stdout: \(stdoutText.prefix(400)), stderr: \(stderr)" }
}

/// Runs a program to completion with stdout/stderr captured through files (no pipe deadlocks on big output).
func runProcess(_ executable: String, _ args: [String], environment: [String: String]? = nil,
                stdin: Data? = nil) throws -> CommandResult {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pkrun-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let outURL = dir.appendingPathComponent("out")
    let errURL = dir.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = args
    if let environment { p.environment = environment }
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    p.standardOutput = outHandle
    p.standardError = errHandle
    if let stdin {
        let inURL = dir.appendingPathComponent("in")
        try stdin.write(to: inURL)
        p.standardInput = try FileHandle(forReadingFrom: inURL)
    } else {
        p.standardInput = FileHandle.nullDevice
    }
    try p.run()
    p.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    return CommandResult(exitCode: p.terminationStatus, stdout: try Data(contentsOf: outURL),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// A real `pickerd` process on a private socket, library and state folder.
final class LiveDaemon: @unchecked Sendable {
    let directory: URL
    let socketPath: String
    let library: URL
    let stateDirectory: URL
    private(set) var process: Process?
    let logURL: URL
    let extraArguments: [String]

    /// Starts pickerd on `library` and waits until it answers `ping`.
    init(library: URL, extraArguments: [String] = [], stateDirectory: URL? = nil) throws {
        // Short path: Unix socket paths must fit in 107 bytes.
        directory = URL(fileURLWithPath: "/tmp/pk-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("s.sock").path
        self.library = library
        self.stateDirectory = stateDirectory ?? directory.appendingPathComponent("state")
        self.extraArguments = extraArguments
        logURL = directory.appendingPathComponent("pickerd.log")
        try start()
    }

    func start() throws {
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let p = Process()
        p.executableURL = TestEnvironment.pickerd
        p.arguments = ["--library", library.path, "--socket", socketPath, "--state-dir", stateDirectory.path] + extraArguments
        // A private cache home: shared thumbnails written by tests never land in the user's ~/.cache.
        p.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_CACHE_HOME": cacheHome.path]
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        p.standardOutput = log
        p.standardError = log
        p.standardInput = FileHandle.nullDevice
        try p.run()
        process = p
        for _ in 0..<200 {
            if let r = try? ctl("ping"), r.exitCode == 0 { return }
            if !p.isRunning { break }
            usleep(25_000)
        }
        throw DaemonError.didNotStart(log: self.log)
    }

    /// Where this daemon's freedesktop thumbnails go (`$XDG_CACHE_HOME`).
    var cacheHome: URL { directory.appendingPathComponent("cache") }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    var pid: Int32 { process?.processIdentifier ?? 0 }

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
        guard let p = process, p.isRunning else { return process?.terminationStatus ?? 0 }
        kill(p.processIdentifier, sig)
        p.waitUntilExit()
        return p.terminationStatus
    }

    deinit {
        if let p = process, p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
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
