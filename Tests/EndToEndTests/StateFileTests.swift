import Foundation
import PickerSystem
import Testing

/// The state folder and `sessions.json` against an attacker who can write there or tamper with
/// the file: a real pickerd, driven by the real pickerctl.
@Suite(.timeLimit(.minutes(15))) struct StateFileTests {
    let library: TemporaryLibrary
    let state: URL

    init() async throws {
        library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "A")
        state = URL(fileURLWithPath: "/tmp/pkst-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    private var sessionsFile: URL { state.appendingPathComponent("sessions.json") }

    /// A file outside the state folder that the daemon must never write.
    private func outsideFile(_ content: String) throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/pkout-\(UUID().uuidString.prefix(8))")
        try Data(content.utf8).write(to: url)
        return url
    }

    private func sessionNames(_ daemon: LiveDaemon) async throws -> [String] {
        let r = try await daemon.ctl("session", "list", "--json")
        let list = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]] ?? []
        return list.compactMap { $0["session"] as? String ?? $0["name"] as? String }.sorted()
    }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func tamperedSessionsAreDroppedAndLoggedWhileGoodOnesSurviveAndThumbnailsWork() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let picks = Array(repeating: "\"A/Landscape_1.jpg\"", count: 1_000_000).joined(separator: ",")
        let entries = [
            #"{"name":"good","title":"Cover","width":640,"height":480,"maxSelection":10,"album":"A","photo":"A/Landscape_1.jpg","selection":["A/Landscape_3.jpg"]}"#,
            #"{"name":"huge","title":"t","width":2000000000,"height":100,"maxSelection":10,"album":"A","selection":[]}"#,
            #"{"name":"esc","title":"x\u001b]52;c;SGk=\u0007\n","width":100,"maxSelection":10,"selection":[]}"#,
            #"{"name":"many","title":"t","width":100,"maxSelection":1000,"selection":["# + picks + "]}",
            #"{"name":"dots","title":"t","width":100,"maxSelection":10,"album":"../..","selection":[]}"#,
            #"{"name":"bad\u001b[2Jname","title":"t","width":100,"maxSelection":10,"selection":[]}"#,
        ]
        try Data((#"{"version":1,"sessions":["# + entries.joined(separator: ",") + "]}").utf8).write(to: sessionsFile)

        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        await #expect(try sessionNames(daemon) == ["good"])
        for name in ["huge", "esc", "many", "dots"] {
            #expect(daemon.log.contains("pickerd[error] \(sessionsFile.path): dropped session '\(name)'"), "\(name) not logged")
        }
        #expect(daemon.log.contains("dropped session 'bad\\e[2Jname'"), "the bad name is logged escaped")
        #expect(!daemon.log.contains("\u{1b}"), "no raw ESC reaches the log")
        await #expect(try daemon.ctl("status", session: "huge").exitCode == 4)
        await #expect(try daemon.ctl("thumbnails", session: "huge").exitCode == 4)

        let grid = daemon.directory.appendingPathComponent("grid.png")
        let thumbs = try await daemon.ctl("thumbnails", "-o", grid.path, session: "good")
        #expect(thumbs.exitCode == 0, "\(thumbs)")
        #expect(isPNG(try Data(contentsOf: grid)))
        await #expect(try daemon.ctl("ping").exitCode == 0)
        let status = try await daemon.ctl("status", "--json", session: "good")
        #expect(status.exitCode == 0 && status.stdoutText.contains("Cover"))
    }

    @Test func plantedSymlinksAtTheTempAndStatePathsAreNotFollowed() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let precious = "precious outside content\n"
        let outside = try outsideFile(precious)
        defer { try? FileManager.default.removeItem(at: outside) }
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        // The old, predictable temp name and a few pids around the daemon's.
        for pid in (daemon.pid - 2)...(daemon.pid + 2) {
            try FileManager.default.createSymbolicLink(atPath: state.appendingPathComponent("sessions.json.tmp-\(pid)").path,
                                                       withDestinationPath: outside.path)
        }
        await #expect(try daemon.ctl("session", "new", "one", "--width", "300").exitCode == 0)
        #expect(try String(contentsOf: outside, encoding: .utf8) == precious)

        // sessions.json itself swapped for a symlink to the outside file while the daemon runs.
        try FileManager.default.removeItem(at: sessionsFile)
        try FileManager.default.createSymbolicLink(atPath: sessionsFile.path, withDestinationPath: outside.path)
        await #expect(try daemon.ctl("session", "new", "two", "--width", "300").exitCode == 0)
        #expect(try String(contentsOf: outside, encoding: .utf8) == precious)
        // The change went to the journal; the writer, idle a moment later, folds it into a new file.
        let replaced = await eventually(within: 30) {
            var st = stat()
            return lstat(sessionsFile.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
        }
        #expect(replaced, "sessions.json is a regular file again")
        #expect(mode(sessionsFile.path) == 0o600, "sessions.json is a regular 0600 file again")
        #expect(try String(contentsOf: outside, encoding: .utf8) == precious)

        // sessions.journal swapped for a symlink to the outside file between two runs.
        await daemon.stop()
        let journal = state.appendingPathComponent("sessions.journal")
        try FileManager.default.removeItem(at: journal)
        try FileManager.default.createSymbolicLink(atPath: journal.path, withDestinationPath: outside.path)
        try await daemon.start()
        await #expect(try sessionNames(daemon) == ["one", "two"])
        await #expect(try daemon.ctl("session", "new", "three", "--width", "300").exitCode == 0)
        #expect(try String(contentsOf: outside, encoding: .utf8) == precious)
        var st = stat()
        #expect(lstat(journal.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_mode & 0o777 == 0o600,
                "sessions.journal is a regular 0600 file of its own again")
        await daemon.stop()
        try await daemon.start()
        await #expect(try sessionNames(daemon) == ["one", "three", "two"])
    }

    @Test func aSessionsFileThatIsASymlinkIsNotReadAtStartUp() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let planted = #"{"version":1,"sessions":[{"name":"planted","title":"t","width":100,"maxSelection":10,"selection":[]}]}"#
        let outside = try outsideFile(planted)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(atPath: sessionsFile.path, withDestinationPath: outside.path)
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        await #expect(try sessionNames(daemon).isEmpty)
        #expect(daemon.log.contains("it is a symlink"))
        await #expect(try daemon.ctl("session", "new", "mine", "--width", "300").exitCode == 0)
        #expect(try String(contentsOf: outside, encoding: .utf8) == planted)
    }

    @Test func aWorldWritableStateFolderIsTightenedTo0700() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(chmod(state.path, 0o777) == 0)
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        #expect(mode(state.path) == 0o700)
        #expect(daemon.log.contains("had mode 0777"))
        await #expect(try daemon.ctl("session", "new", "s", "--width", "300").exitCode == 0)
        #expect(mode(sessionsFile.path) == 0o600)
    }

    @Test func aStateFolderThatIsASymlinkIsRefusedAndSessionsStayInMemory() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let link = URL(fileURLWithPath: state.path + "-link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: state.path)
        defer { try? FileManager.default.removeItem(at: link) }
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: link)
        #expect(daemon.log.contains("it is a symlink or not a folder"))
        #expect(daemon.log.contains("kept in memory only"))
        await #expect(try daemon.ctl("session", "new", "s", "--width", "300").exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: sessionsFile.path))
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to another uid"))
    func aStateFolderOwnedByAnotherUserIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(chown(state.path, 65534, 65534) == 0)
        #expect(chmod(state.path, 0o777) == 0)
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        #expect(daemon.log.contains("owned by uid 65534"))
        await #expect(try daemon.ctl("session", "new", "s", "--width", "300").exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: sessionsFile.path))
        #expect(mode(state.path) == 0o777, "another user's folder is left alone")
    }

    @Test func withoutHomeNothingIsWrittenUnderTmp() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let dir = state.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let socket = dir.appendingPathComponent("s.sock").path
        let log = dir.appendingPathComponent("log").path
        // The places the old fallbacks wrote to: /tmp/.local/state/pickerd and /tmp/.cache/thumbnails.
        let watched = ["/tmp/.local/state/pickerd/sessions.json", "/tmp/.cache/thumbnails"]
        let before = watched.map(identity)
        let pid = try spawnProcess(TestEnvironment.pickerd.path, ["--library", library.url.path, "--socket", socket],
                                   environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: log, stderr: log)
        defer { kill(pid, SIGTERM); _ = waitForExit(pid) }
        func ctl(_ args: String...) async throws -> CommandResult {
            try await runProcess(TestEnvironment.pickerctl.path, ["--socket", socket] + args, environment: ["PATH": "/usr/bin:/bin"])
        }
        try await waitUntil("the restarted pickerd to answer a ping on \(socket)", within: 60) { await (try? ctl("ping"))?.exitCode == 0 }
        await #expect(try ctl("session", "new", "s", "--width", "300").exitCode == 0)
        await #expect(try ctl("--session", "s", "select-album", "A").exitCode == 0)
        await #expect(try ctl("--session", "s", "thumbnails", "-o", dir.appendingPathComponent("g.png").path).exitCode == 0)
        #expect(watched.map(identity) == before)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("no state folder"), "\(text)")
        #expect(text.contains("kept in memory only"))
    }

    @Test(.enabled(if: SmallDisk.canMount, "needs root and permission to mount a tmpfs"))
    func aFullDiskKeepsThePreviousFileAndTheDaemonServing() async throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let disk = try await SmallDisk(at: state.appendingPathComponent("disk"), kilobytes: 64)
        defer { disk.unmount() }
        let folder = disk.url.appendingPathComponent("state")
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: folder)
        defer { daemon.stopBlocking() }  // before the unmount: the daemon holds the folder open
        let file = folder.appendingPathComponent("sessions.json")
        await #expect(try daemon.ctl("session", "new", "a", "--width", "300").exitCode == 0)
        let saved = try Data(contentsOf: file)

        try disk.fill()
        let r = try await daemon.ctl("session", "new", "b", "--width", "300", "--title", String(repeating: "t", count: 256))
        #expect(r.exitCode == 0, "the change is kept in memory: \(r)")
        #expect(try Data(contentsOf: file) == saved, "the previous file is intact")
        #expect(daemon.log.contains("saving sessions to \(folder.path)/sessions.json failed"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "no temp file is left behind: \(leftovers)")
        await #expect(try sessionNames(daemon) == ["a", "b"])

        disk.unfill()
        await #expect(try daemon.ctl("session", "new", "c", "--width", "300").exitCode == 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\"a\"") && text.contains("\"b\"") && text.contains("\"c\""))
    }

    /// Inode and modification time of a path, or nil when absent.
    private func identity(_ path: String) -> [Int]? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return [Int(st.st_ino), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)]
    }
}

/// Titles, like names, carry no control characters.
@Suite(.timeLimit(.minutes(15))) struct TitleValidationTests {
    @Test func titlesWithEscNewlineOrC1AreRefusedWithAClearError() async throws {
        let library = try await TemporaryLibrary()
        let daemon = try await LiveDaemon(library: library.url)
        for (i, title) in ["a\u{1b}[2Jb", "two\nlines", "csi\u{9b}31m", "osc\u{1b}]52;c;SGk=\u{07}"].enumerated() {
            let r = try await daemon.ctl("session", "new", "t\(i)", "--width", "300", "--title", title)
            #expect(r.exitCode == 1, "\(r)")
            #expect(r.stderr.hasPrefix("pickerctl: title must not contain control characters"), "\(r)")
            #expect(r.stdout.isEmpty)
            await #expect(try daemon.ctl("status", session: "t\(i)").exitCode == 4)
        }
        await #expect(try daemon.ctl("session", "new", "ok", "--width", "300", "--title", "Trip 🌸").exitCode == 0)
    }
}

/// Canvas sizes from clients and files: an error or a bounded image, never an abort.
@Suite(.timeLimit(.minutes(15))) struct CanvasBoundTests {
    @Test func aHugeAlbumWithoutAPaneHeightIsPagedInsteadOfOneGiantCanvas() async throws {
        let library = try await TemporaryLibrary()
        let small = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/exif-orientation/pillow_orientation_rectangle.jpg")
        for i in 0..<3000 { try library.add(small, album: "Many", as: "p\(i).jpg") }
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "tall", "--width", "16").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Many", session: "tall").exitCode == 0)
        let geometry = try await daemon.ctl("thumbnails", "--size", "1024", "--json", session: "tall")
        #expect(geometry.exitCode == 0, "\(geometry)")
        let g = try JSONSerialization.jsonObject(with: geometry.stdout) as? [String: Any] ?? [:]
        #expect((g["height"] as? Int ?? Int.max) <= 8192)
        #expect((g["pages"] as? Int ?? 0) > 1)
        let out = daemon.directory.appendingPathComponent("grid.png")
        let r = try await daemon.ctl("thumbnails", "--size", "1024", "--page", "2", "-o", out.path, session: "tall")
        #expect(r.exitCode == 0, "\(r)")
        if let (w, h) = pngSize(try Data(contentsOf: out)) { #expect(w * h <= 8192 * 8192) } else { Issue.record("no PNG") }
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func previewAtTheLargest8192SquareWorksAndTheDaemonStaysUp() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "p", "--width", "300").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "p").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "p").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("big.jpg")
        let r = try await daemon.ctl("preview", "--width", "8192", "--height", "8192", "--format", "jpeg", "-o", out.path, session: "p")
        #expect(r.exitCode == 0, "\(r)")
        await #expect(try daemon.ctl("preview", "--width", "8193", "--height", "100", session: "p").exitCode == 2)
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }
}

/// A tiny tmpfs to run out of space on (`mount -t tmpfs -o size=…`), unmounted by the test.
final class SmallDisk {
    let url: URL
    private var filler: URL { url.appendingPathComponent("filler") }

    /// Whether this process may mount a tmpfs (root in a container that allows it).
    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        let probe = "/tmp/pkprobe-\(UUID().uuidString.prefix(8))"
        guard mkdir(probe, 0o700) == 0 else { return false }
        defer { rmdir(probe) }
        guard let r = try? runProcessBlocking("/bin/mount", ["-t", "tmpfs", "-o", "size=8k", "tmpfs", probe]), r.exitCode == 0 else { return false }
        _ = try? runProcessBlocking("/bin/umount", [probe])
        return true
    }()

    init(at url: URL, kilobytes: Int) async throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let r = try await runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", url.path])
        guard r.exitCode == 0 else { throw SpawnError.failed("mount: \(r.stderr)", r.exitCode) }
    }

    /// Writes a file until the disk is full (ENOSPC).
    func fill() throws {
        let fd = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw SpawnError.failed("open filler", errno) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        var one: UInt8 = 1
        while write(fd, &one, 1) > 0 {}
    }

    func unfill() { unlink(filler.path) }

    func unmount() {
        if (try? runProcessBlocking("/bin/umount", [url.path]))?.exitCode != 0 {
            _ = try? runProcessBlocking("/bin/umount", ["-l", url.path])
        }
    }
}
