#if canImport(Glibc)
import Glibc
#endif

/// Runs a short helper program and reads what it prints (pick asks `tmux display` where its pane is).
public enum ChildOutput {
    /// posix_spawn(`executable`, `arguments`) with stdin and stderr on /dev/null and stdout on a pipe;
    /// the whole of stdout, or nil when the program cannot be started or exits non-zero.
    /// - Parameter environment: "NAME=value" strings, the child's whole environment.
    public static func run(_ executable: String, _ arguments: [String], environment: [String] = []) -> String? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { FileDescriptorIO.close(readEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0
        FileDescriptorIO.close(writeEnd)
        guard started else { return nil }
        var output: [UInt8] = []
        while let chunk = try? Terminal.readAvailable(readEnd), !chunk.isEmpty { output += chunk }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0 ? String(decoding: output, as: UTF8.self) : nil
    }

    /// The first executable file named `name` in the directories of `path` (a PATH value).
    public static func find(_ name: String, in path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
