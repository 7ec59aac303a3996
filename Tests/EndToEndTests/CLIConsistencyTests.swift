import Foundation
import Testing

/// What a new user trips over in pickerctl (issue 16): usage, -o, exit codes, idempotent scripts,
/// paths for xargs, and watch lines that say what changed. A real pickerd, the built pickerctl.
@Suite(.timeLimit(.minutes(15))) struct CLIConsistencyTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        // Landscape_2.jpg is not in the fixture subset: a copy of Landscape_1 stands in under its name.
        for (n, source) in [(1, 1), (2, 1), (3, 3)] {
            try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_\(source).jpg"), album: "Trip",
                            as: "Landscape_\(n).jpg")
        }
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Odd",
                        as: "it's a \"pic\".jpg")
        daemon = try await LiveDaemon(library: library.url)
    }

    private var nowhere: [String] { ["--socket", "/tmp/pk-nowhere-\(UUID().uuidString.prefix(6)).sock"] }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    /// A session "s" on the Trip album with its first and third photo picked.
    private func sessionWithPicks() async throws {
        await #expect(try daemon.ctl("session", "new", "s", "--width", "300", "--height", "200").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Trip", session: "s").exitCode == 0)
        await #expect(try daemon.ctl("toggle", "Landscape_1.jpg", session: "s").exitCode == 0)
        await #expect(try daemon.ctl("toggle", "Landscape_3.jpg", session: "s").exitCode == 0)
    }

    // MARK: - Usage

    @Test func noCommandPrintsTheUsageOnStderrAndExitsTwo() async throws {
        let r = try await runProcess(TestEnvironment.pickerctl.path, nowhere)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("Usage: pickerctl") && r.stderr.contains("session new"), "\(r.stderr)")
        // Asking for help is not an error.
        await #expect(try runProcess(TestEnvironment.pickerctl.path, nowhere + ["--help"]).exitCode == 0)
    }

    @Test func aCommandGroupAloneListsItsSubcommandsAndExitsTwo() async throws {
        let r = try await runProcess(TestEnvironment.pickerctl.path, nowhere + ["session"])
        #expect(r.exitCode == 2, "\(r)")
        #expect(!r.stderr.contains("unknown command"), "\(r.stderr)")
        for sub in ["new", "list", "show", "resize", "close"] { #expect(r.stderr.contains(sub), "\(r.stderr)") }
    }

    @Test func messagesUseAnBeforeAlbumAndNameAnEmptySocketPath() async throws {
        let album = try await runProcess(TestEnvironment.pickerctl.path, nowhere + ["select-album"])
        #expect(album.exitCode == 2 && album.stderr.contains("give an album name"), "\(album)")
        let photo = try await runProcess(TestEnvironment.pickerctl.path, nowhere + ["select-photo"])
        #expect(photo.exitCode == 2 && photo.stderr.contains("give a photo name"), "\(photo)")
        let empty = try await runProcess(TestEnvironment.pickerctl.path, ["--socket", "", "ping"])
        #expect(empty.exitCode == 2 && empty.stderr.contains("empty socket path"), "\(empty)")
        #expect(!empty.stderr.contains("too long"), "\(empty)")
    }

    @Test func qualityWithPNGIsAUsageError() async throws {
        let out = daemon.directory.appendingPathComponent("q.png").path
        let r = try await runProcess(TestEnvironment.pickerctl.path, nowhere + ["get-image", "--quality", "50", "-o", out])
        #expect(r.exitCode == 2 && r.stderr.contains("--quality"), "\(r)")
        let preview = try await runProcess(TestEnvironment.pickerctl.path, nowhere + ["preview", "--format", "png", "--quality", "50", "-o", out])
        #expect(preview.exitCode == 2, "\(preview)")
    }

    // MARK: - Sessions

    @Test func resizeWithHeightAloneKeepsTheWidth() async throws {
        await #expect(try daemon.ctl("session", "new", "r", "--width", "640", "--height", "480").exitCode == 0)
        let r = try await daemon.ctl("session", "resize", "--height", "200", "--json", session: "r")
        #expect(r.exitCode == 0, "\(r)")
        let state = try json(r)
        #expect(state["width"] as? Int == 640 && state["height"] as? Int == 200, "\(state)")
        await #expect(try daemon.ctl("session", "resize", session: "r").exitCode == 2)
    }

    @Test func sessionNewWithExistOkLeavesAnExistingSessionAsItIsAndExitsZero() async throws {
        await #expect(try daemon.ctl("session", "new", "e", "--width", "640", "--title", "First").exitCode == 0)
        let again = try await daemon.ctl("session", "new", "e", "--width", "100", "--title", "Second", "--exist-ok", "--json")
        #expect(again.exitCode == 0, "\(again)")
        let state = try json(again)
        #expect(state["width"] as? Int == 640 && state["title"] as? String == "First", "\(state)")
        // Without the flag, an existing name is still an error; a new name with it is simply created.
        await #expect(try daemon.ctl("session", "new", "e", "--width", "100").exitCode == 1)
        let fresh = try await daemon.ctl("session", "new", "f", "--width", "120", "--exist-ok", "--json")
        let freshState = try json(fresh)
        #expect(fresh.exitCode == 0 && freshState["width"] as? Int == 120, "\(fresh)")
    }

    // MARK: - Output

    @Test func outputFileReceivesTheTextOfTextCommands() async throws {
        let file = daemon.directory.appendingPathComponent("albums.txt")
        let r = try await daemon.ctl("albums", "-o", file.path)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.isEmpty, "text went to stdout: \(r)")
        let written = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(written.contains("Trip") && written.contains("All Photos"), "\(written)")
        let jsonFile = daemon.directory.appendingPathComponent("albums.json")
        await #expect(try daemon.ctl("albums", "--json", "-o", jsonFile.path).stdout.isEmpty)
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: jsonFile)) as? [[String: Any]]
        #expect(parsed?.contains { $0["name"] as? String == "Trip" } == true)
        // A failing command leaves no file behind.
        let failed = daemon.directory.appendingPathComponent("failed.txt")
        await #expect(try daemon.ctl("status", "-o", failed.path, session: "ghost").exitCode == 4)
        #expect(!FileManager.default.fileExists(atPath: failed.path))
    }

    @Test func thumbnailsPagePastTheEndIsNotFoundAndNamesThePageCount() async throws {
        await #expect(try daemon.ctl("session", "new", "t", "--width", "142", "--height", "142").exitCode == 0)  // one cell a page
        await #expect(try daemon.ctl("select-album", "Trip", session: "t").exitCode == 0)
        let r = try await daemon.ctl("thumbnails", "--json", "--page", "99", session: "t")
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.stderr.contains("99") && r.stderr.contains("3 pages"), "\(r.stderr)")
        await #expect(try daemon.ctl("thumbnails", "--json", "--page", "0", session: "t").exitCode == 2)
    }

    // MARK: - Paths

    @Test func selectionPathsPrintsAbsolutePathsOnePerLineOrNulSeparated() async throws {
        try await sessionWithPicks()
        let root = library.url.resolvingSymlinksInPath().path
        let expected = [root + "/Trip/Landscape_1.jpg", root + "/Trip/Landscape_3.jpg"]
        let lines = try await daemon.ctl("selection", "--paths", session: "s")
        #expect(lines.exitCode == 0 && lines.stdoutText == expected.map { $0 + "\n" }.joined(), "\(lines)")
        let nul = try await daemon.ctl("selection", "--paths", "-0", session: "s")
        #expect(nul.stdoutText == expected.map { $0 + "\0" }.joined(), "\(nul)")
        #expect(expected.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        await #expect(try daemon.ctl("selection", "-0", session: "s").exitCode == 2)
    }

    @Test func selectionPathsWithNulCarryAnyFileNameThroughXargs() async throws {
        await #expect(try daemon.ctl("session", "new", "x", "--width", "100").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Odd", session: "x").exitCode == 0)
        await #expect(try daemon.ctl("toggle", "--index", "1", session: "x").exitCode == 0)
        let script = "'\(TestEnvironment.pickerctl.path)' --socket '\(daemon.socketPath)' --session x selection --paths -0 | xargs -0 ls --"
        let r = try await runProcess("/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutText.hasSuffix("/Odd/it's a \"pic\".jpg\n"), "\(r)")
    }

    @Test func photosJSONGivesTheSameAbsolutePathAsSelection() async throws {
        try await sessionWithPicks()
        let photos = try await json(try daemon.ctl("photos", "--json", session: "s"))
        let rows = photos["photos"] as? [[String: Any]] ?? []
        let selection = try await json(try daemon.ctl("selection", "--json", session: "s"))
        let picked = (selection["photos"] as? [[String: Any]] ?? []).compactMap { $0["absolute_path"] as? String }
        #expect(rows.count == 3)
        let first = rows.first { $0["name"] as? String == "Landscape_1.jpg" }?["absolute_path"] as? String
        #expect(first != nil && first == picked.first, "\(String(describing: first)) vs \(picked)")
        #expect(rows.allSatisfy { ($0["absolute_path"] as? String).map { FileManager.default.fileExists(atPath: $0) } == true })
    }

    // MARK: - watch

    /// Starts `pickerctl watch` on session `s` with its output in a file; returns the pid and the file.
    private func startWatch() throws -> (pid: pid_t, output: URL) {
        let output = daemon.directory.appendingPathComponent("watch-\(UUID().uuidString.prefix(6)).txt")
        let pid = try spawnProcess(TestEnvironment.pickerctl.path, ["--socket", daemon.socketPath, "--session", "s", "watch"],
                                   environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: output.path,
                                   stderr: output.path + ".err")
        return (pid, output)
    }

    /// The file's text once `condition` holds, or as it is after `seconds` (the caller expects on it).
    private func waitForText(in file: URL, seconds: Double = 30, _ condition: (String) -> Bool) async -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while true {
            text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if condition(text) || Date() > deadline { return text }
            await pause(50_000)
        }
    }

    @Test func watchLinesNameThePhotoPickedOrDropped() async throws {
        try await sessionWithPicks()
        let watch = try startWatch()
        defer { kill(watch.pid, SIGTERM); _ = waitForExit(watch.pid) }
        // watch prints nothing until an event, and may not be subscribed yet: toggle until it shows one.
        var seen = ""
        for _ in 0..<20 where !seen.contains("+Landscape_2.jpg") {
            await #expect(try daemon.ctl("toggle", "Landscape_2.jpg", session: "s").exitCode == 0)
            seen = await waitForText(in: watch.output, seconds: 2) { $0.contains("+Landscape_2.jpg") }
            if !seen.contains("+Landscape_2.jpg") { _ = try await daemon.ctl("toggle", "Landscape_2.jpg", session: "s") }
        }
        #expect(seen.contains("s selection +Landscape_2.jpg (3 of 10)"), "\(seen)")
        await #expect(try daemon.ctl("toggle", "Landscape_1.jpg", session: "s").exitCode == 0)
        let text = await waitForText(in: watch.output) { $0.contains("-Landscape_1.jpg") }
        #expect(text.contains("s selection -Landscape_1.jpg (2 of 10)"), "\(text)")
    }

    @Test func watchExitsFiveWhenTheDaemonGoesAway() async throws {
        try await sessionWithPicks()
        let watch = try startWatch()
        // Subscribed once a change shows up in its output.
        var text = ""
        for _ in 0..<20 where !text.contains("selection") {
            _ = try await daemon.ctl("toggle", "Landscape_2.jpg", session: "s")
            text = await waitForText(in: watch.output, seconds: 2) { $0.contains("selection") }
        }
        #expect(text.contains("selection"), "\(text)")
        let stopped = await daemon.stop()
        #expect(stopped == 0, "pickerd exited \(stopped); log:\n\(daemon.log.suffix(3000))")
        let code = await exitStatus(of: watch.pid)
        #expect(code == 5, "watch exited \(code)")
    }
}
