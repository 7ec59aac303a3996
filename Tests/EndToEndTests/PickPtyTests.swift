import Foundation
import Testing

/// `pickerctl pick` on a pseudo-terminal that plays a kitty, a sixel and a plain terminal
/// (Tests/tools/pty_terminal.py answers the picker's queries and records every byte drawn): the right
/// back-end is chosen from the answers, pictures fit the pane, each is taken away before the next, and
/// nothing is left on screen after exit.
@Suite(.timeLimit(.minutes(15)), .enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct PickPtyTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(source.appendingPathComponent("Landscape_1.jpg"), album: "Kyoto", as: "a.jpg")
        try library.add(source.appendingPathComponent("Landscape_6.jpg"), album: "Kyoto", as: "b.jpg")
    }

    /// What one run drew, and the session's pane size in pixels while it ran.
    struct Run {
        var exitCode: Int
        var finished: Bool
        var recording: [UInt8]
        var paneWidth: Int
        var paneHeight: Int
    }

    /// Plays `mode` at 120x40 cells of 8x16 px (TIOCGWINSZ 960x640) through the scenario: a picture, `j`, the next one, `q`.
    private func play(_ mode: String) async throws -> Run {
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "pty", "--width", "300").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Kyoto", session: "pty").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "a.jpg", session: "pty").exitCode == 0)
        let watch = try await PaneSizeWatch(daemon, session: "pty", width: 300)
        let recording = daemon.directory.appendingPathComponent("recording")
        let stdout = daemon.directory.appendingPathComponent("stdout")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/pty_terminal.py").path
        let r = try await runProcess(TestEnvironment.python, [script, mode, "120", "40", "960", "640", recording.path, stdout.path, "--",
                                                        TestEnvironment.pickerctl.path, "--socket", daemon.socketPath, "--session", "pty", "pick"])
        let summary = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
        let pane = watch.firstSetSize()  // pick gives the session its size back on exit
        return Run(exitCode: summary["exit"] as? Int ?? -1,
                   finished: summary["timeout"] as? Bool == false && summary["steps_left"] as? Int == 0,
                   recording: Array((try? Data(contentsOf: recording)) ?? Data()),
                   paneWidth: pane["width"] as? Int ?? 0, paneHeight: pane["height"] as? Int ?? 0)
    }

    @Test func kittyTerminalGetsF100PNGsThatFitThePaneAndAreDeletedOnChange() async throws {
        let run = try await play("kitty")
        #expect(run.finished && run.exitCode == 3, "exit \(run.exitCode)")
        let commands = TerminalRecording.kittyCommands(run.recording)
        let transmits = commands.indices.filter { commands[$0].keys.hasPrefix("a=T") }
        #expect(transmits.count == 2, "one picture, then the next after j")
        for t in transmits {
            #expect(commands[t].keys.contains("f=100"), "PNG: \(commands[t].keys)")
            let png = TerminalRecording.kittyPayload(commands, from: t)
            let size = try #require(TerminalRecording.pngSize(png))
            #expect(size.width <= run.paneWidth && size.height <= run.paneHeight, "\(size) in \(run.paneWidth)x\(run.paneHeight)")
            #expect(size.width == run.paneWidth || size.height == run.paneHeight, "fitted, not shrunk further")
        }
        // The first picture is deleted before the second is sent, and the second before the terminal is handed back.
        let deletes = commands.indices.filter { commands[$0].keys.hasPrefix("a=d") }
        #expect(deletes.contains { $0 > transmits[0] && $0 < transmits[1] })
        #expect(deletes.contains { $0 > transmits[1] })
        let lastDelete = TerminalRecording.lastRange(of: "\u{1b}_Ga=d", in: run.recording) ?? Int.max
        let leave = TerminalRecording.lastRange(of: "\u{1b}[?1049l", in: run.recording) ?? -1
        #expect(lastDelete < leave, "the image is deleted before the main screen comes back")
        try expectNothingLeft(run)
    }

    @Test func sixelTerminalGetsSixelsWhoseRasterFitsThePane() async throws {
        let run = try await play("sixel")
        #expect(run.finished && run.exitCode == 3, "exit \(run.exitCode)")
        let rasters = TerminalRecording.sixelRasters(run.recording)
        #expect(rasters.count == 2, "one sixel, then the next after j")
        for r in rasters {
            #expect(r.width <= run.paneWidth && r.height <= run.paneHeight + 6, "\(r) in \(run.paneWidth)x\(run.paneHeight)")
            #expect(r.width >= run.paneWidth / 2, "the picture fills the pane's width: \(r)")
        }
        #expect(!TerminalRecording.kittyCommands(run.recording).contains { $0.keys.hasPrefix("a=T") })
        try expectNothingLeft(run)
    }

    @Test func plainTerminalGetsColouredSymbols() async throws {
        let run = try await play("plain")
        #expect(run.finished && run.exitCode == 3, "exit \(run.exitCode)")
        let text = String(decoding: run.recording, as: UTF8.self)
        #expect(text.contains("\u{1b}[38;2;"), "24-bit coloured symbols")
        #expect(TerminalRecording.sixelRasters(run.recording).isEmpty)
        #expect(!TerminalRecording.kittyCommands(run.recording).contains { $0.keys.hasPrefix("a=T") })
        try expectNothingLeft(run)
    }

    @Test func iTermGetsInlinePNGsThatFitThePane() async throws {
        let run = try await play("iterm")
        #expect(run.finished && run.exitCode == 3, "exit \(run.exitCode)")
        let text = String(decoding: run.recording, as: UTF8.self)
        let images = text.components(separatedBy: "\u{1b}]1337;File=").dropFirst().compactMap { part -> (String, [UInt8])? in
            guard let colon = part.firstIndex(of: ":"), let bell = part.firstIndex(of: "\u{07}") else { return nil }
            return (String(part[..<colon]), Array(Data(base64Encoded: String(part[part.index(after: colon)..<bell])) ?? Data()))
        }
        #expect(images.count == 2, "one picture, then the next after j")
        for (arguments, png) in images {
            #expect(arguments.contains("inline=1"))
            let size = try #require(TerminalRecording.pngSize(png))
            #expect(size.width <= run.paneWidth && size.height <= run.paneHeight)
            #expect(arguments.contains("size=\(png.count)"))
        }
        try expectNothingLeft(run)
    }

    @Test func insideTmuxKittyGraphicsGoThroughPassthroughWithEscapesDoubled() async throws {
        let run = try await play("tmux-kitty")
        #expect(run.finished && run.exitCode == 3, "exit \(run.exitCode)")
        let text = String(decoding: run.recording, as: UTF8.self)
        let wrapped = text.components(separatedBy: "\u{1b}Ptmux;\u{1b}\u{1b}_G").count - 1
        let all = TerminalRecording.kittyCommands(run.recording).count
        #expect(wrapped > 2 && wrapped == all, "every kitty command wrapped: \(wrapped) of \(all)")
        let transmits = TerminalRecording.kittyCommands(run.recording).filter { $0.keys.hasPrefix("a=T") }
        #expect(transmits.count == 2)
        try expectNothingLeft(run)
    }

    @Test func insideTmuxWithoutPassthroughSymbolsAreDrawn() async throws {
        let run = try await play("tmux-plain")
        #expect(run.finished && run.exitCode == 3, "exit \(run.exitCode)")
        #expect(String(decoding: run.recording, as: UTF8.self).contains("\u{1b}[38;2;"))
        #expect(!TerminalRecording.kittyCommands(run.recording).contains { $0.keys.hasPrefix("a=T") })
        try expectNothingLeft(run)
    }

    /// One alternate screen entered and left, the cursor shown again, mouse reporting off, and nothing drawn after.
    private func expectNothingLeft(_ run: Run) throws {
        let text = String(decoding: run.recording, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1b}[?1049h").count == 2)
        #expect(text.components(separatedBy: "\u{1b}[?1049l").count == 2)
        #expect(text.hasSuffix("\u{1b}[?1006l\u{1b}[?1000l\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l"), "tail: \(text.suffix(60).debugDescription)")
    }
}

/// Reading what a program drew: kitty graphics commands, sixel raster attributes, PNG headers.
enum TerminalRecording {
    struct KittyCommand {
        var keys: String
        var payload: [UInt8]
    }

    /// Every `ESC _ G keys ; payload ESC \` in order.
    static func kittyCommands(_ bytes: [UInt8]) -> [KittyCommand] {
        var out: [KittyCommand] = []
        var i = 0
        while i + 3 < bytes.count {
            guard bytes[i] == 0x1b, bytes[i + 1] == UInt8(ascii: "_"), bytes[i + 2] == UInt8(ascii: "G") else { i += 1; continue }
            var j = i + 3
            while j + 1 < bytes.count, !(bytes[j] == 0x1b && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
            let body = bytes[(i + 3)..<j]
            let semicolon = body.firstIndex(of: UInt8(ascii: ";")) ?? body.endIndex
            out.append(KittyCommand(keys: String(decoding: body[..<semicolon], as: UTF8.self),
                                    payload: semicolon < body.endIndex ? Array(body[(semicolon + 1)...]) : []))
            i = j + 2
        }
        return out
    }

    /// The decoded data of the transmission starting at `start` (chunks until `m=0`).
    static func kittyPayload(_ commands: [KittyCommand], from start: Int) -> [UInt8] {
        var base64: [UInt8] = []
        for c in commands[start...] {
            base64 += c.payload
            if c.keys.contains("m=0") { break }
        }
        return Array(Data(base64Encoded: Data(base64)) ?? Data())
    }

    /// A PNG's IHDR width and height.
    static func pngSize(_ png: [UInt8]) -> (width: Int, height: Int)? {
        guard png.count >= 24, png[0] == 0x89, png[1] == 0x50 else { return nil }
        func be32(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    /// Each sixel's raster attributes `"Pan;Pad;Ph;Pv` (width Ph, height Pv).
    static func sixelRasters(_ bytes: [UInt8]) -> [(width: Int, height: Int)] {
        let text = String(decoding: bytes, as: UTF8.self)
        var out: [(Int, Int)] = []
        for part in text.components(separatedBy: "\u{1b}P").dropFirst() {
            guard let q = part.firstIndex(of: "q"), part[part.index(after: q)...].hasPrefix("\"") else { continue }
            let numbers = part[part.index(q, offsetBy: 2)...].prefix { $0.isNumber || $0 == ";" }.split(separator: ";").compactMap { Int($0) }
            if numbers.count == 4 { out.append((numbers[2], numbers[3])) }
        }
        return out
    }

    static func lastRange(of needle: String, in bytes: [UInt8]) -> Int? {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return nil }
        for i in stride(from: bytes.count - n.count, through: 0, by: -1) where bytes[i] == n[0] && Array(bytes[i..<i + n.count]) == n {
            return i
        }
        return nil
    }
}
