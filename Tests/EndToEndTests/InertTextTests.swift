import Foundation
import PickerSystem
import Testing

/// Names from the library reach the terminal and the log as text, never as terminal controls or forged rows.
@Suite(.timeLimit(.minutes(15))) struct InertTextTests {
    static let esc = "\u{1B}"
    /// Clear screen, a clipboard write (OSC 52), CR and backspace overwrites, a one-character CSI (C1), a newline.
    static let albumName = "ev\(esc)[2Jil\nalbum\u{9B}31m"
    static let photoNames = ["osc\(esc)]52;c;SGVsbG8=\u{07}.jpg", "cr\rback\u{08}c1\u{9B}2J.jpg", "two\nlines.jpg", "plain.jpg"]

    let root: TemporaryLibrary
    let library: URL
    let daemon: LiveDaemon

    init() async throws {
        root = try await TemporaryLibrary()
        // The library root itself carries an ESC: it is printed by `library` and logged at start-up.
        library = root.url.appendingPathComponent("lib\(InertTextTests.esc)[2J")
        let album = library.appendingPathComponent(InertTextTests.albumName)
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        for name in InertTextTests.photoNames {
            try FileManager.default.copyItem(at: photo, to: album.appendingPathComponent(name))
        }
        daemon = try await LiveDaemon(library: library, extraEnvironment: ["PICKERD_LOG_LEVEL": "debug"])
    }

    /// Every run's stdout and stderr: only the newlines pickerctl writes between rows may be control characters.
    func expectInert(_ r: CommandResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", r.stdoutText), ("stderr", r.stderr)] {
            let bad = text.unicodeScalars.filter { InertText.isControl($0) && $0 != "\n" }
            #expect(bad.isEmpty, "\(what) \(stream) has raw controls \(bad.map { String($0.value, radix: 16) }): \(text.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    func lines(_ r: CommandResult) -> [Substring] { r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    func jsonArrayCount(_ r: CommandResult, key: String? = nil) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: r.stdout)
        if let key, let dict = object as? [String: Any] { return (dict[key] as? [Any])?.count ?? -1 }
        return (object as? [Any])?.count ?? -1
    }

    @Test func listingsAndSessionTextShowNamesEscapedOneRowEach() async throws {
        // A title with controls may be refused by the daemon's validation; either way what is printed is inert.
        let created = try await daemon.ctl("session", "new", "s", "--width", "100", "--title", "T\(InertTextTests.esc)[2J\r")
        expectInert(created, "session new")
        if created.exitCode != 0 { await #expect(try daemon.ctl("session", "new", "s", "--width", "100").exitCode == 0) }

        let albums = try await daemon.ctl("albums")
        expectInert(albums, "albums")
        await #expect(lines(albums).count == (try jsonArrayCount(try daemon.ctl("albums", "--json"))), "\(albums)")
        #expect(albums.stdoutText.contains("ev\\e[2Jil\\nalbum\\u{9b}31m"), "\(albums)")

        await expectInert(try daemon.ctl("select-album", "--index", "2", session: "s"), "select-album")
        let photos = try await daemon.ctl("photos", session: "s")
        expectInert(photos, "photos")
        #expect(lines(photos).count == InertTextTests.photoNames.count, "a name forged a row: \(photos)")
        await #expect(try jsonArrayCount(try daemon.ctl("photos", "--json", session: "s"), key: "photos") == InertTextTests.photoNames.count)
        #expect(photos.stdoutText.contains("osc\\e]52;c;SGVsbG8=\\x07.jpg"), "\(photos)")
        #expect(photos.stdoutText.contains("cr\\rback\\x08c1\\u{9b}2J.jpg"), "\(photos)")

        for i in 1...InertTextTests.photoNames.count {
            await expectInert(try daemon.ctl("select-photo", "--index", "\(i)", session: "s"), "select-photo \(i)")
            await expectInert(try daemon.ctl("toggle", "--index", "\(i)", session: "s"), "toggle \(i)")
            let status = try await daemon.ctl("status", session: "s")
            expectInert(status, "status \(i)")
            #expect(lines(status).count == 7, "status has one line per field: \(status)")
            await expectInert(try daemon.ctl("session", "show", "s"), "session show \(i)")
        }
        let list = try await daemon.ctl("session", "list")
        expectInert(list, "session list")
        #expect(lines(list).count == 2, "header and one session: \(list)")
        let selection = try await daemon.ctl("selection", session: "s")
        expectInert(selection, "selection")
        #expect(lines(selection).count == InertTextTests.photoNames.count + 1, "rows and the count line: \(selection)")
        await expectInert(try daemon.ctl("library"), "library")
        await #expect(try daemon.ctl("library").stdoutText.contains("lib\\e[2J"))
    }

    @Test func errorsQuotingANameAreInert() async throws {
        _ = try await daemon.ctl("session", "new", "e", "--width", "100")
        let r = try await daemon.ctl("select-album", "no\(InertTextTests.esc)]52;c;SGk=\u{07}\nforged", session: "e")
        #expect(r.exitCode == 4, "\(r)")
        expectInert(r, "select-album error")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func watchPrintsEventsWithNamesEscapedOneLineEach() async throws {
        _ = try await daemon.ctl("session", "new", "w", "--width", "100")
        let out = root.url.appendingPathComponent("watch.out").path
        let watch = try spawnProcess(TestEnvironment.pickerctl.path, ["--socket", daemon.socketPath, "--session", "w", "watch"],
                                     environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: out, stderr: out)
        defer { kill(watch, SIGTERM); _ = waitForExit(watch) }
        func text() -> String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        // Until watch has subscribed, events are not seen: resize until one shows (bounded). The width
        // alternates: a resize to the width the pane already has changes nothing and sends no event.
        var width = 100
        try await waitUntil("watch to print a pane_size event (it has subscribed)", within: 60, seen: text) {
            width = width == 101 ? 102 : 101
            _ = try await daemon.ctl("session", "resize", "--width", "\(width)", session: "w")
            return text().contains("pane_size")
        }
        _ = try await daemon.ctl("select-album", "--index", "2", session: "w")
        for i in 1...InertTextTests.photoNames.count { _ = try await daemon.ctl("select-photo", "--index", "\(i)", session: "w") }
        _ = try await daemon.ctl("session", "resize", "--width", "123", session: "w")
        try await waitUntil("watch to print the resize to 123 wide", within: 60, seen: text) { text().contains("123 wide") }
        kill(watch, SIGTERM)
        #expect(await exitStatus(of: watch) == 0)

        let r = CommandResult(exitCode: 0, stdout: Data(text().utf8), stderr: "")
        expectInert(r, "watch")
        #expect(r.stdoutText.contains("123 wide"), "\(r)")
        #expect(r.stdoutText.contains("w photo osc\\e]52;c;SGVsbG8=\\x07.jpg"), "\(r)")
        #expect(r.stdoutText.contains("w album ev\\e[2Jil\\nalbum\\u{9b}31m"), "\(r)")
        for line in lines(r) { #expect(line.hasPrefix("w "), "a forged event line: \(line.debugDescription)") }
    }

    @Test func daemonLogHasNoRawControlFromANameOrPath() async throws {
        _ = try await daemon.ctl("session", "new", "l", "--width", "100")
        _ = try await daemon.ctl("select-album", "no\(InertTextTests.esc)[2J\nforged", session: "l")
        _ = try await daemon.ctl("select-album", "--index", "2", session: "l")
        _ = try await daemon.ctl("select-photo", "--index", "1", session: "l")
        let log = daemon.log
        #expect(log.contains("lib\\e[2J"), "the start-up line names the library root: \(log)")
        #expect(log.contains("no\\e[2J\\nforged"), "the refused name is logged escaped at debug level: \(log)")
        let bad = log.unicodeScalars.filter { InertText.isControl($0) && $0 != "\n" }
        #expect(bad.isEmpty, "raw controls in the log: \(bad.map { String($0.value, radix: 16) })")
        for line in log.split(separator: "\n") { #expect(line.hasPrefix("pickerd["), "a forged log line: \(line.debugDescription)") }
    }
}
