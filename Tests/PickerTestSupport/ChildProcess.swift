import Foundation

/// What a finished child process left behind.
public struct ChildResult: Sendable, CustomStringConvertible {
    public var exitCode: Int32
    public var stdout: String
    public var stderr: String
    public var description: String { "exit \(exitCode), stdout: \(stdout.prefix(400)), stderr: \(stderr.prefix(400))" }
}

public struct ChildSpawnError: Error, CustomStringConvertible {
    public var executable: String
    public var code: Int32
    public var description: String { "posix_spawn \(executable): \(String(cString: strerror(code)))" }
}

/// Runs a program to completion, stdout/stderr captured through files. posix_spawn + waitpid
/// rather than Foundation's Process, whose exit monitoring was seen to miss a child's exit here.
public func runChild(_ executable: String, _ args: [String], environment: [String: String]? = nil) throws -> ChildResult {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pkchild-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let outPath = dir.appendingPathComponent("out").path
    let errPath = dir.appendingPathComponent("err").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([executable] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { env.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, env)
    guard rc == 0 else { throw ChildSpawnError(executable: executable, code: rc) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: the macros are not imported.
    let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    func read(_ path: String) -> String {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
    }
    return ChildResult(exitCode: code, stdout: read(outPath), stderr: read(errPath))
}

/// The built test probe (`Tests/PickerTestProbe`): in `PICKER_BIN_DIR` (set by `make test`), else `.build/debug`.
public enum TestProbe {
    public static var path: String {
        let env = ProcessInfo.processInfo.environment["PICKER_BIN_DIR"] ?? ""
        let dir = env.isEmpty ? TestCorpusLocation.packageRoot.appendingPathComponent(".build/debug") : URL(fileURLWithPath: env)
        return dir.appendingPathComponent("picker-test-probe").path
    }

    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }
}
