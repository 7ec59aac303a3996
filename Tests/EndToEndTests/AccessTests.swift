import Foundation
import Testing

/// Who may talk to the daemon, and where binary output may go.
@Suite(.timeLimit(.minutes(15))) struct AccessTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        daemon = try await LiveDaemon(library: library.url)
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                   "needs root, setpriv and /usr/bin/python3 to act as another uid"))
    func peerWithAnotherUIDIsRefusedEvenWhenTheSocketIsOpenedUp() async throws {
        // Open the socket and its folder to everyone: only SO_PEERCRED stands in the way now.
        chmod(daemon.directory.path, 0o777)
        chmod(daemon.socketPath, 0o777)
        // A raw client, not pickerctl: pickerctl itself refuses a server of another uid before the daemon can answer.
        let raw = try await runProcess("/usr/bin/setpriv",
                                 ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                                  "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\nb=b''\n"
                                  + "while True:\n  d=s.recv(4096)\n  if not d: break\n  b+=d\nsys.stdout.buffer.write(b)",
                                  daemon.socketPath])
        #expect(raw.stdoutText.contains("permission denied: peer uid 65534"), "\(raw)")
        // The daemon logs after closing: wait for the line (bounded).
        try await waitUntil("pickerd to log that it refused uid 65534", within: 60, seen: { daemon.log }) {
            daemon.log.contains("refused a connection from uid 65534")
        }
        #expect(daemon.log.contains("refused a connection from uid 65534"))
        let r = try await runProcess("/usr/bin/setpriv",
                               ["--reuid=65534", "--regid=65534", "--clear-groups", TestEnvironment.pickerctl.path,
                                "--socket", daemon.socketPath, "ping"])
        #expect(r.exitCode == 5, "\(r)")
        #expect(r.stderr.contains("is served by uid 0, not by you (uid 65534)"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    private func selectFirstPhoto(_ session: String) async throws {
        await #expect(try daemon.ctl("session", "new", session, "--width", "100").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: session).exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: session).exitCode == 0)
    }

    /// /dev/null's device number, 1:3 (glibc's makedev is a macro Swift does not import).
    static let nullDevice: dev_t = (1 << 8) | 3

    /// Whether this process may make a device node that works (root, CAP_MKNOD, a filesystem
    /// without nodev). Found by trying, in a folder of its own.
    static let canMakeDeviceNodes: Bool = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pkdev-\(UUID().uuidString.prefix(8))")
        guard (try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        let node = dir.appendingPathComponent("null").path
        guard mknod(node, S_IFCHR | 0o666, Self.nullDevice) == 0 else { return false }
        let fd = open(node, O_WRONLY)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }()

    /// The kind of file at `path` (S_IFMT bits) and its device number, without following a symlink.
    private func fileKind(_ path: String) -> (type: mode_t, device: dev_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_mode & S_IFMT, st.st_rdev)
    }

    /// A device node of our own (a copy of /dev/null's 1:3 in the daemon's temp folder): a
    /// regression that replaced the output by rename replaces this node, never the machine's /dev/null.
    @Test(.enabled(if: canMakeDeviceNodes, "needs to make a device node (root with CAP_MKNOD, no nodev)"))
    func outputToADeviceIsWrittenInPlaceNeverReplaced() async throws {
        try await selectFirstPhoto("dev")
        let node = daemon.directory.appendingPathComponent("null").path
        #expect(mknod(node, S_IFCHR | 0o666, Self.nullDevice) == 0, "mknod: \(errno)")
        let r = try await daemon.ctl("get-image", "-o", node, session: "dev")
        #expect(r.exitCode == 0, "\(r)")
        let kind = fileKind(node)
        #expect(kind?.type == S_IFCHR && kind?.device == Self.nullDevice, "the node must stay the device: \(String(describing: kind))")
    }

    /// A FIFO: the image goes through it to the reader, and the FIFO is still there afterwards.
    @Test func outputToAFIFOIsWrittenInPlaceNeverReplaced() async throws {
        try await selectFirstPhoto("fifo")
        let fifo = daemon.directory.appendingPathComponent("pipe").path
        let received = daemon.directory.appendingPathComponent("received.png").path
        #expect(mkfifo(fifo, 0o600) == 0, "mkfifo: \(errno)")
        // cat opens the FIFO itself: as spawn's stdin the open would block posix_spawn until a writer came.
        let reader = try spawnProcess("/bin/cat", [fifo], environment: nil, stdin: "/dev/null", stdout: received,
                                      stderr: "/dev/null")
        let r = try await daemon.ctl("get-image", "-o", fifo, session: "fifo")
        #expect(r.exitCode == 0, "\(r)")
        let stillFIFO = fileKind(fifo)?.type == S_IFIFO
        #expect(stillFIFO, "the FIFO must not be replaced")
        if stillFIFO {
            // Unblocks the reader if pickerctl never opened the FIFO (then it reads nothing).
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        } else {
            kill(reader, SIGKILL)  // still waiting on the FIFO that was renamed over
        }
        #expect(await exitStatus(of: reader) == 0)
        #expect(isPNG(try Data(contentsOf: URL(fileURLWithPath: received))), "the reader gets the image")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a pseudo-terminal"))
    func binaryOutputIsNeverWrittenToATerminal() async throws {
        _ = try await daemon.ctl("session", "new", "--width", "100")
        _ = try await daemon.ctl("select-album", "A")
        _ = try await daemon.ctl("select-photo", "--index", "1")
        // script(1) gives pickerctl a pty as stdout.
        let cmd = "\(TestEnvironment.pickerctl.path) --socket \(daemon.socketPath) get-image; echo \"rc=$?\""
        let r = try await runProcess("/usr/bin/script", ["-qec", cmd, "/dev/null"])
        #expect(r.stdoutText.contains("refusing to write image data to a terminal"), "\(r)")
        #expect(r.stdoutText.contains("rc=2"))
        #expect(!r.stdoutText.contains("PNG"))
    }
}
