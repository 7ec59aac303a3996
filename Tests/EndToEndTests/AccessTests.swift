import Foundation
import Testing

/// Who may talk to the daemon, and where binary output may go.
@Suite struct AccessTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() throws {
        library = try TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        daemon = try LiveDaemon(library: library.url)
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                   "needs root, setpriv and /usr/bin/python3 to act as another uid"))
    func peerWithAnotherUIDIsRefusedEvenWhenTheSocketIsOpenedUp() throws {
        // Open the socket and its folder to everyone: only SO_PEERCRED stands in the way now.
        chmod(daemon.directory.path, 0o777)
        chmod(daemon.socketPath, 0o777)
        // A raw client, not pickerctl: pickerctl itself refuses a server of another uid before the daemon can answer.
        let raw = try runProcess("/usr/bin/setpriv",
                                 ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                                  "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\nb=b''\n"
                                  + "while True:\n  d=s.recv(4096)\n  if not d: break\n  b+=d\nsys.stdout.buffer.write(b)",
                                  daemon.socketPath])
        #expect(raw.stdoutText.contains("permission denied: peer uid 65534"), "\(raw)")
        // The daemon logs after closing: wait for the line (bounded).
        for _ in 0..<200 where !daemon.log.contains("refused a connection from uid 65534") { usleep(25_000) }
        #expect(daemon.log.contains("refused a connection from uid 65534"))
        let r = try runProcess("/usr/bin/setpriv",
                               ["--reuid=65534", "--regid=65534", "--clear-groups", TestEnvironment.pickerctl.path,
                                "--socket", daemon.socketPath, "ping"])
        #expect(r.exitCode == 5, "\(r)")
        #expect(r.stderr.contains("is served by uid 0, not by you (uid 65534)"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func outputToADeviceIsWrittenInPlaceNeverReplaced() throws {
        _ = try daemon.ctl("session", "new", "dev", "--width", "100")
        _ = try daemon.ctl("select-album", "A", session: "dev")
        _ = try daemon.ctl("select-photo", "--index", "1", session: "dev")
        #expect(try daemon.ctl("get-image", "-o", "/dev/null", session: "dev").exitCode == 0)
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR, "/dev/null must stay a device")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a pseudo-terminal"))
    func binaryOutputIsNeverWrittenToATerminal() throws {
        _ = try daemon.ctl("session", "new", "--width", "100")
        _ = try daemon.ctl("select-album", "A")
        _ = try daemon.ctl("select-photo", "--index", "1")
        // script(1) gives pickerctl a pty as stdout.
        let cmd = "\(TestEnvironment.pickerctl.path) --socket \(daemon.socketPath) get-image; echo \"rc=$?\""
        let r = try runProcess("/usr/bin/script", ["-qec", cmd, "/dev/null"])
        #expect(r.stdoutText.contains("refusing to write image data to a terminal"), "\(r)")
        #expect(r.stdoutText.contains("rc=2"))
        #expect(!r.stdoutText.contains("PNG"))
    }
}
