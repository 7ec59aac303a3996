import Foundation
import Testing

/// pickerctl speaks only to a server of its own uid, and only through a fallback folder that is its own.
@Suite(.timeLimit(.minutes(15))) struct PeerCheckTests {
    static let canSwitchUID = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    @Test(.enabled(if: canSwitchUID, "needs root, setpriv and /usr/bin/python3 to run a server as another uid"))
    func serverOfAnotherUIDIsRefusedBeforeAnyByteIsSent() throws {
        let folder = try OpenFolder()
        let server = try FakeServer(uid: 65534, socketPath: folder.path + "/s.sock", logIn: folder.path)
        let r = try runProcess(TestEnvironment.pickerctl.path, ["--socket", server.socketPath, "ping"],
                               environment: ["PATH": "/usr/bin:/bin"])
        #expect(r.exitCode == 5, "\(r)")
        #expect(r.stderr.contains("the socket \(server.socketPath) is served by uid 65534, not by you (uid 0); refusing to talk to it"),
                "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let seen = server.finish()
        #expect(seen == "connections=1 bytes=0", "the fake server saw: \(seen)")
    }

    @Test(.enabled(if: canSwitchUID, "needs root, setpriv and /usr/bin/python3 to run a server as another uid"))
    func theSameFakeServerRunAsOurUIDDoesReceiveTheHandshake() throws {
        // The control for the test above: the fake server records bytes when pickerctl does talk to it.
        let folder = try OpenFolder()
        let server = try FakeServer(uid: 0, socketPath: folder.path + "/s.sock", logIn: folder.path)
        let r = try runProcess(TestEnvironment.pickerctl.path, ["--socket", server.socketPath, "ping"],
                               environment: ["PATH": "/usr/bin:/bin"])
        #expect(r.exitCode != 0, "the fake server never answers: \(r)")
        let seen = server.finish()
        #expect(seen.hasPrefix("connections=1 bytes=") && seen != "connections=1 bytes=0", "the fake server saw: \(seen)")
    }

    @Test(.enabled(if: canSwitchUID, "needs root and setpriv to run pickerctl as a throwaway uid"))
    func fallbackFolderOpenToOthersIsRefused() throws {
        let fallback = try FallbackFolder(offset: 1)
        defer { fallback.remove() }
        try fallback.makeFolder(owner: fallback.uid, mode: 0o777)
        let r = try fallback.pickerctl("ping")
        #expect(r.exitCode == 5, "\(r)")
        #expect(r.stderr.contains("\(fallback.path) has mode 777; it must be 700"), "\(r.stderr)")
        #expect(r.stderr.contains("refusing to use the socket \(fallback.path)/pickerd.sock"), "\(r.stderr)")
    }

    @Test(.enabled(if: canSwitchUID, "needs root and setpriv to run pickerctl as a throwaway uid"))
    func fallbackFolderOfAnotherUserIsRefused() throws {
        let fallback = try FallbackFolder(offset: 2)
        defer { fallback.remove() }
        try fallback.makeFolder(owner: 0, mode: 0o700)
        let r = try fallback.pickerctl("ping")
        #expect(r.exitCode == 5, "\(r)")
        #expect(r.stderr.contains("\(fallback.path) belongs to uid 0, not to you (uid \(fallback.uid))"), "\(r.stderr)")
    }

    @Test(.enabled(if: canSwitchUID, "needs root and setpriv to run pickerctl as a throwaway uid"))
    func fallbackFolderThatIsASymlinkIsRefused() throws {
        let fallback = try FallbackFolder(offset: 3)
        defer { fallback.remove() }
        let target = try OpenFolder()
        chown(target.path, fallback.uid, fallback.uid)
        chmod(target.path, 0o700)
        #expect(symlink(target.path, fallback.path) == 0)
        let r = try fallback.pickerctl("ping")
        #expect(r.exitCode == 5, "\(r)")
        #expect(r.stderr.contains("\(fallback.path) is not a real folder"), "\(r.stderr)")
    }

    @Test(.enabled(if: canSwitchUID && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                   "needs root, setpriv and /usr/bin/python3"))
    func privateFallbackFolderOfOurOwnIsUsed() throws {
        // The control for the refusals above: a 0700 folder of the user, served by the user, is spoken to.
        let fallback = try FallbackFolder(offset: 4)
        defer { fallback.remove() }
        try fallback.makeFolder(owner: fallback.uid, mode: 0o700)
        let logs = try OpenFolder()
        let server = try FakeServer(uid: fallback.uid, socketPath: fallback.path + "/pickerd.sock", logIn: logs.path)
        let r = try fallback.pickerctl("ping")
        #expect(!r.stderr.contains("refusing"), "\(r)")
        let seen = server.finish()
        #expect(seen.hasPrefix("connections=1 bytes=") && seen != "connections=1 bytes=0", "the fake server saw: \(seen)")
    }
}

/// A temporary folder anyone may write to (for a server run as another uid), removed when released.
final class OpenFolder {
    let path: String

    init() throws {
        path = "/tmp/pkpeer-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o777)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A Unix-socket server that is not pickerd: it accepts one connection, records how many bytes the
/// first read brings (0 when the client closes without sending) and exits. It listens under a
/// temporary name and renames the socket into place, so the path exists only once it accepts.
final class FakeServer {
    let socketPath: String
    private let pid: pid_t
    private let outPath: String

    private static let script = """
        import os, socket, sys
        path = sys.argv[1]
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path + ".tmp"); s.listen(8); os.rename(path + ".tmp", path)
        s.settimeout(120)  # a safety net if the test never connects, not a measured limit
        c, _ = s.accept()
        c.settimeout(120)
        data = c.recv(65536)
        print("connections=1 bytes=%d" % len(data), flush=True)
        """

    init(uid: uid_t, socketPath: String, logIn folder: String) throws {
        self.socketPath = socketPath
        outPath = folder + "/fake-server.out"
        pid = try spawnProcess("/usr/bin/setpriv",
                               ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c", FakeServer.script, socketPath],
                               environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: outPath, stderr: outPath)
        var exited: Int32? = nil
        while access(socketPath, F_OK) != 0 {
            guard isRunning(pid, exitCode: &exited) else { throw FakeServerError.didNotStart(finish()) }
            usleep(10_000)
        }
    }

    /// Waits for the server to exit and returns what it recorded.
    func finish() -> String {
        _ = waitForExit(pid)
        return ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

enum FakeServerError: Error { case didNotStart(String) }

/// `/tmp/pickerd-UID` for a throwaway uid that pickerctl runs as (via setpriv), so a test can plant a bad
/// fallback folder without touching a real user's. Refuses to start when the folder already exists.
struct FallbackFolder {
    let uid: uid_t
    let path: String

    init(offset: uid_t) throws {
        uid = 47_000 + uid_t(getpid() % 1000) * 8 + offset
        path = "/tmp/pickerd-\(uid)"
        var st = stat()
        guard lstat(path, &st) != 0 else { throw FallbackFolderError.alreadyExists(path) }
    }

    func makeFolder(owner: uid_t, mode: mode_t) throws {
        guard mkdir(path, 0o700) == 0 else { throw FallbackFolderError.alreadyExists(path) }
        chown(path, owner, owner)
        chmod(path, mode)
    }

    /// pickerctl as `uid`, with neither PICKER_SOCKET nor XDG_RUNTIME_DIR: it uses the fallback folder.
    func pickerctl(_ args: String...) throws -> CommandResult {
        try runProcess("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", TestEnvironment.pickerctl.path] + args,
                       environment: ["PATH": "/usr/bin:/bin"])
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

enum FallbackFolderError: Error { case alreadyExists(String) }
