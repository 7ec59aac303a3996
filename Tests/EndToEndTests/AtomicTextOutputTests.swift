import Foundation
import Testing

/// `pickerctl -o FILE` on a text command: FILE is replaced only when the command succeeds (a temp file
/// beside it, renamed), untouched when it fails, and a symlink at FILE is replaced, not followed.
@Suite(.timeLimit(.minutes(15))) struct AtomicTextOutputTests {
    let folder: URL
    let notes: URL

    init() throws {
        folder = URL(fileURLWithPath: "/tmp/pkout-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        notes = folder.appendingPathComponent("notes.txt")
    }

    private func withoutDaemon(_ args: String...) throws -> CommandResult {
        try runProcess(TestEnvironment.pickerctl.path,
                       ["--socket", folder.appendingPathComponent("nobody-listens.sock").path] + args)
    }

    private func entries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

    /// Before: the existing notes.txt was deleted (exit 5).
    @Test func aFailedCommandLeavesAnExistingFileAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("my notes\n".utf8).write(to: notes)
        let r = try withoutDaemon("albums", "-o", notes.path)
        #expect(r.exitCode == 5, "\(r)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")
        #expect(try entries() == ["notes.txt"], "no temp file left")
    }

    /// Before: the symlink's target was emptied.
    @Test func aFailedCommandDoesNotEmptyWhatASymlinkAtFilePointsTo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.txt")
        try Data("keep me\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: notes.path, withDestinationPath: target.path)
        let r = try withoutDaemon("albums", "-o", notes.path)
        #expect(r.exitCode == 5, "\(r)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
        #expect(try entries() == ["notes.txt", "target.txt"])
    }

    @Test func aSucceedingCommandReplacesFileAndASymlinkThereKeepingItsMode() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        let daemon = try LiveDaemon(library: library.url)
        defer { _ = daemon.stop() }
        try Data("old content that is longer than the new\n".utf8).write(to: notes)
        chmod(notes.path, 0o600)
        var r = try daemon.ctl("albums", "-o", notes.path)
        #expect(r.exitCode == 0 && r.stdout.isEmpty, "\(r)")
        let text = try String(contentsOf: notes, encoding: .utf8)
        #expect(text.contains("Trip") && !text.contains("old content"), "\(text)")
        var st = stat()
        #expect(stat(notes.path, &st) == 0 && st.st_mode & 0o777 == 0o600, "a private file stays private")

        let target = folder.appendingPathComponent("target.txt")
        try Data("keep me\n".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        r = try daemon.ctl("albums", "-o", link.path)
        #expect(r.exitCode == 0, "\(r)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
        #expect(lstat(link.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
        #expect(try entries() == ["link.txt", "notes.txt", "target.txt"], "no temp file left")
    }

    /// `watch` succeeds by being interrupted: what it printed is in FILE then.
    @Test func anInterruptedWatchPutsItsLinesInFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Trip")
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Home")
        let daemon = try LiveDaemon(library: library.url)
        defer { _ = daemon.stop() }
        #expect(try daemon.ctl("session", "new", "w", "--width", "64").exitCode == 0)
        let log = folder.appendingPathComponent("watch.err").path
        let pid = try spawnProcess(TestEnvironment.pickerctl.path,
                                   ["--socket", daemon.socketPath, "--session", "w", "watch", "-o", notes.path],
                                   environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: log, stderr: log)
        // Select until watch has printed the change (its temp file grows); generous for a loaded machine.
        var seen = false
        for round in 0..<100 where !seen {
            _ = try daemon.ctl("select-album", round % 2 == 0 ? "Trip" : "Home", session: "w")
            usleep(200_000)
            seen = try entries().contains { name in
                name.hasPrefix(".notes.txt.tmp-")
                    && ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0) > 0
            }
        }
        #expect(seen, "watch wrote nothing")
        #expect(!FileManager.default.fileExists(atPath: notes.path), "FILE appears only when watch ends")
        kill(pid, SIGINT)
        #expect(waitForExit(pid) == 0)
        #expect(try String(contentsOf: notes, encoding: .utf8).contains("w album "))
        #expect(try entries() == ["notes.txt", "watch.err"])
    }
}
