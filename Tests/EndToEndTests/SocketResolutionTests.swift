import Foundation
import Testing

/// README: the default socket is `$PICKER_SOCKET`, else `$XDG_RUNTIME_DIR/pickerd.sock`, else
/// `/tmp/pickerd-$UID/pickerd.sock` (folder 0700); the session is `--session`, else
/// `$PICKER_SESSION`, else `default`. Every daemon here is started without `--socket`.
@Suite(.timeLimit(.minutes(15))) struct SocketResolutionTests {
    let library: TemporaryLibrary
    let scratch: ScratchDirectory

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        scratch = try await ScratchDirectory()
    }

    private var baseEnvironment: [String: String] { ["PATH": "/usr/bin:/bin", "HOME": scratch.url.path] }

    private func startDaemon(environment: [String: String], asUID: uid_t? = nil) async throws -> BareDaemon {
        try await BareDaemon(arguments: ["--library", library.url.path, "--state-dir", scratch.path("state-\(asUID ?? 0)"),
                                   "--no-shared-thumbnails"],
                       environment: baseEnvironment.merging(environment) { $1 }, asUID: asUID, logDirectory: scratch.url)
    }

    /// Pings with exactly `environment` until it answers (bounded); the last result.
    private func pingUntilUp(_ daemon: BareDaemon, environment: [String: String], asUID: uid_t? = nil) async throws -> CommandResult {
        var last = CommandResult(exitCode: -1, stdout: Data(), stderr: "never ran")
        _ = try await eventually {
            last = try await bareCtl(["ping"], environment: environment, asUID: asUID)
            return last.exitCode == 0 || !daemon.isRunning
        }
        return last
    }

    @Test func pickerSocketIsUsedByBothDaemonAndClientAndBeatsXDGRuntimeDir() async throws {
        let socket = scratch.path("env.sock")
        let runtime = scratch.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let env = ["PICKER_SOCKET": socket, "XDG_RUNTIME_DIR": runtime]
        let daemon = try await startDaemon(environment: env)
        let ping = try await pingUntilUp(daemon, environment: env)
        #expect(ping.exitCode == 0, "\(ping)\n\(daemon.log)")
        var st = stat()
        #expect(lstat(socket, &st) == 0 && st.st_mode & S_IFMT == S_IFSOCK, "the socket is at $PICKER_SOCKET")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/pickerd.sock"))
        // pickerctl with only XDG_RUNTIME_DIR looks there, finds nobody, and says so (exit 5).
        let elsewhere = try await bareCtl(["ping"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(elsewhere.exitCode == 5, "\(elsewhere)")
        #expect(daemon.stop() == 0)
    }

    @Test func xdgRuntimeDirHoldsTheDefaultSocket() async throws {
        let runtime = scratch.path("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let daemon = try await startDaemon(environment: ["XDG_RUNTIME_DIR": runtime])
        let ping = try await pingUntilUp(daemon, environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(ping.exitCode == 0, "\(ping)\n\(daemon.log)")
        var st = stat()
        #expect(lstat(runtime + "/pickerd.sock", &st) == 0 && st.st_mode & S_IFMT == S_IFSOCK)
        #expect(st.st_mode & 0o777 == 0o600, "socket mode \(String(st.st_mode & 0o777, radix: 8))")
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: runtime + "/pickerd.sock"), "removed on exit")
    }

    @Test func pickerSessionNamesTheSessionWhenNoSessionOptionIsGiven() async throws {
        let socket = scratch.path("s.sock")
        let daemon = try await startDaemon(environment: ["PICKER_SOCKET": socket])
        await #expect(try pingUntilUp(daemon, environment: ["PICKER_SOCKET": socket]).exitCode == 0)
        let alpha = ["PICKER_SOCKET": socket, "PICKER_SESSION": "alpha"]
        await #expect(try bareCtl(["session", "new", "--width", "300"], environment: alpha).exitCode == 0)
        await #expect(try bareCtl(["select-album", "A"], environment: alpha).exitCode == 0)
        let list = try await bareCtl(["session", "list", "--json"], environment: alpha)
        #expect(list.stdoutText.contains("\"alpha\"") && !list.stdoutText.contains("\"default\""), "\(list)")
        let status = try await bareCtl(["status", "--json"], environment: alpha)
        #expect(status.exitCode == 0 && status.stdoutText.contains("\"album\":\"A\""), "\(status)")
        // Without the variable the session is "default", which does not exist (exit 4).
        let plain = try await bareCtl(["status"], environment: ["PICKER_SOCKET": socket])
        #expect(plain.exitCode == 4, "\(plain)")
        // --session beats $PICKER_SESSION.
        let option = try await bareCtl(["--session", "beta", "status"], environment: alpha)
        #expect(option.exitCode == 4 && option.stderr.contains("beta"), "\(option)")
        #expect(daemon.stop() == 0)
    }

    /// A uid nobody uses whose fallback folder does not exist yet (the test creates and removes it).
    private static let throwawayUID: uid_t? = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
        for uid in uid_t(61_234)..<uid_t(61_334) where getpwuid(uid) == nil
            && !FileManager.default.fileExists(atPath: "/tmp/pickerd-\(uid)") {
            return uid
        }
        return nil
    }()

    @Test(.enabled(if: throwawayUID != nil, "needs root, setpriv and a free uid with no /tmp/pickerd-UID yet"))
    func tmpFallbackFolderIsCreated0700AndFoundByPickerctl() async throws {
        let uid = try #require(Self.throwawayUID)
        let folder = "/tmp/pickerd-\(uid)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The throwaway uid must be able to write its state folder; the library is world-readable.
        let state = scratch.path("state-\(uid)")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chown(state, uid, uid)
        chmod(scratch.url.path, 0o755)
        let daemon = try await startDaemon(environment: [:], asUID: uid)
        let ping = try await pingUntilUp(daemon, environment: baseEnvironment, asUID: uid)
        #expect(ping.exitCode == 0, "\(ping)\n\(daemon.log)")
        var st = stat()
        #expect(lstat(folder, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR)
        #expect(st.st_mode & 0o7777 == 0o700, "mode \(String(st.st_mode & 0o7777, radix: 8))")
        #expect(st.st_uid == uid)
        #expect(lstat(folder + "/pickerd.sock", &st) == 0 && st.st_mode & S_IFMT == S_IFSOCK)
        // Opened up, the folder is no longer trusted: pickerctl exits 5 before sending anything.
        chmod(folder, 0o755)
        let refused = try await bareCtl(["ping"], environment: baseEnvironment, asUID: uid)
        #expect(refused.exitCode == 5 && refused.stderr.contains("700"), "\(refused)")
        chmod(folder, 0o700)
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/pickerd.sock"), "socket removed on exit")
    }
}
