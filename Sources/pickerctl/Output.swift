#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

/// Where results go: text and JSON to stdout, binary to stdout or `-o FILE`, errors to stderr.
///
/// Text is inert: `Render` escapes every name, title and message field (`InertText`), so a newline in a
/// name cannot forge a row; here, as a last guard, any control character left in a text line but the
/// row newlines is escaped too, so no terminal control from a name can reach the terminal.
enum Output {
    static func line(_ s: String) { print(InertText.escaped(s, keeping: ["\n"])) }

    static func json(_ v: JSONValue) { print(v.serialized) }

    /// Text already made inert (serialized JSON), written as is through stdout's buffer.
    static func raw(_ s: String) { print(s, terminator: "") }

    /// A text line written at once (unbuffered), for streams a reader follows live.
    static func streamLine(_ s: String) { writeAll(1, Array((InertText.escaped(s) + "\n").utf8)) }

    /// Terminal control of our own (a progress bar's carriage return and erase): the text given is
    /// made here, never from a name (names inside it went through `Render.shown`).
    static func progress(_ s: String) { writeAll(1, Array(s.utf8)) }

    /// A JSON object as one line written at once (JSON escapes its own controls).
    static func streamJSON(_ v: JSONValue) { writeAll(1, Array((v.serialized + "\n").utf8)) }

    /// `pickerctl: message` on stderr, as one line: server messages quote names, which are escaped.
    static func error(_ message: String) {
        let text = "pickerctl: \(InertText.escaped(message))\n"
        writeAll(2, Array(text.utf8))
    }

    /// File paths for another program (`xargs`): written exactly, each ended by a newline or a NUL. A
    /// path with a newline or another control character cannot be told apart on a line, so without NUL
    /// separators such a path is escaped like any text (`-0` is the way to carry it exactly).
    static func paths(_ paths: [String], nulTerminated: Bool) {
        let text = paths.map { nulTerminated ? $0 + "\0" : InertText.escaped($0) + "\n" }.joined()
        writeAll(1, Array(text.utf8))
    }

    /// Usage text for a command line that named no command: on stderr, so nothing parses it as output.
    static func usage(_ text: String) { writeAll(2, Array(text.utf8)) }

    /// Refuses binary output to a terminal, before anything is requested.
    static func checkBinaryDestination(_ inv: Invocation) throws(CLIError) {
        // Terminal text formats (sixel, symbols) are meant for a terminal.
        if inv.outputPath == nil && isatty(1) != 0 && !ImageFormatOptions.asksForTerminalText(inv) {
            throw .usage("refusing to write image data to a terminal; use -o FILE or redirect stdout (e.g. > out.png)")
        }
    }

    /// Writes image bytes to `-o FILE` (via a temp file and rename, so a failure leaves no half file) or stdout.
    /// A FILE that exists and is not a regular file (/dev/null, a FIFO, a terminal) is written in place.
    static func binary(_ bytes: [UInt8], to path: String?, terminalText: Bool = false) throws(CLIError) {
        guard let path else {
            guard writeAll(1, bytes) else { throw CLIError(message: "writing to stdout failed: \(Errno.current)", exitCode: .failure) }
            return
        }
        var st = stat()
        if stat(path, &st) == 0 && st.st_mode & S_IFMT != S_IFREG {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError(message: "cannot write \(path): \(Errno.current)", exitCode: .failure) }
            defer { close(fd) }
            if isatty(fd) != 0 && !terminalText { throw .usage("refusing to write image data to a terminal (\(path))") }
            guard writeAll(fd, bytes) else {
                throw CLIError(message: "cannot write \(path): \(Errno.current)", exitCode: .failure)
            }
            return
        }
        // Temp file with O_EXCL|O_NOFOLLOW and a random name: a symlink planted beside `path` is never followed.
        do {
            try AtomicFileWriter.replace(path: path, with: bytes, mode: TextOutputFile.modeForReplacing(path), durable: false)
        } catch {
            throw CLIError(message: "cannot write \(path): \(error.errno)", exitCode: .failure)
        }
    }

    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        (try? FileDescriptorIO.writeAll(fd, bytes)) != nil
    }
}

/// Human and JSON renderings of replies. Every name, title, message and path in a text rendering
/// goes through `shown`, so it prints as one inert line.
enum Render {
    /// A field from the daemon (a name, title, message or path) as it may appear in text output.
    static func shown(_ s: String) -> String { InertText.escaped(s) }

    static func pane(_ w: Int, _ h: Int?) -> String { h.map { "\(w)x\($0)" } ?? "\(w) wide" }

    static func sessionText(_ s: SessionState) -> String {
        var lines: [String] = []
        lines.append("session:   \(shown(s.name))")
        lines.append("title:     \(shown(s.title))")
        lines.append("message:   \(shown(s.message))")
        if let album = s.album {
            lines.append("album:     \(shown(album))" + (s.albumIndex.map { " (\($0))" } ?? " (missing)"))
        } else {
            lines.append("album:     (none)")
        }
        if let photo = s.photo {
            lines.append("photo:     \(shown(photo))" + (s.photoIndex.map { " (\($0) of \(s.photoCount))" } ?? ""))
        } else {
            lines.append("photo:     (none)")
        }
        lines.append("pane:      \(pane(s.width, s.height))")
        lines.append("selection: \(s.selectionCount) of \(s.maxSelection)")
        return lines.joined(separator: "\n")
    }

    static func sessionJSON(_ s: SessionState) -> JSONValue {
        .object([
            ("session", .string(s.name)),
            ("title", .string(s.title)),
            ("message", .string(s.message)),
            ("album", .optional(s.album)),
            ("album_index", .optional(s.albumIndex)),
            ("photo", .optional(s.photo)),
            ("photo_index", .optional(s.photoIndex)),
            ("photo_count", .int(s.photoCount)),
            ("width", .int(s.width)),
            ("height", .optional(s.height)),
            ("selection_count", .int(s.selectionCount)),
            ("max_selection", .int(s.maxSelection)),
        ])
    }

    static func eventText(_ event: Event) -> String {
        switch event {
        case let .session(change, s):
            let detail: String
            switch change {
            case .album: detail = s.album.map { shown($0) + (s.albumIndex.map { " (\($0))" } ?? "") } ?? "(none)"
            case .photo:
                detail = (s.photo.map(shown) ?? "(none)") + (s.photoIndex.map { " (\($0) of \(s.photoCount))" } ?? "")
                    + (s.message.isEmpty ? "" : ": \(shown(s.message))")
            case .selection: detail = "\(s.selectionCount) of \(s.maxSelection) picked"
            case .paneSize: detail = pane(s.width, s.height)
            case .closed, .created: detail = shown(s.title)
            default: detail = ""  // a change this pickerctl does not know (a newer daemon)
            }
            return "\(shown(s.name)) \(change.name) \(detail)"
        case .library(let l):
            return "library \(l.scanState == .scanning ? "scanning" : "ready"): \(l.albumCount) albums, \(l.photoCount) photos"
        case .libraryChanges(let c):
            // One line per photo, so scripts can follow: `library added 2024/Kyoto/IMG_0042.jpg`.
            let lines = c.added.map { "library added \(shown($0))" } + c.removed.map { "library removed \(shown($0))" }
                + c.changed.map { "library changed \(shown($0))" }
            return lines.joined(separator: "\n")
        case .scanProgress(let p):
            return "library \(scanText(p))"
        case let .unknown(type, payload):
            return "event 0x\(String(type, radix: 16)) (not known to this pickerctl, \(payload.count) bytes)"
        }
    }

    /// `scanning: 41,200 of ~100,000 files, 1.1 s` (or `ready: 100,000 files in 0.9 s`).
    static func scanText(_ p: ScanProgress) -> String {
        let seconds = "\(p.elapsedMilliseconds / 1000).\(p.elapsedMilliseconds % 1000 / 100) s"
        guard p.state == .scanning else { return "ready: \(grouped(p.filesDone)) files in \(seconds)" }
        let of = p.filesExpected > 0 ? " of ~\(grouped(p.filesExpected))" : ""
        return "scanning: \(grouped(p.filesDone))\(of) files, \(seconds)"
    }

    static func scanFields(_ p: ScanProgress) -> [(String, JSONValue)] {
        [("state", .string(p.state == .scanning ? "scanning" : "ready")), ("files_done", .int(p.filesDone)),
         ("files_expected", .int(p.filesExpected)), ("elapsed_ms", .int(p.elapsedMilliseconds))]
    }

    /// 100000 → "100,000".
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func eventJSON(_ event: Event) -> JSONValue {
        switch event {
        case let .session(change, s):
            guard case .object(let fields) = sessionJSON(s) else { return .null }
            return .object([("event", .string(change.name))] + fields)
        case .library(let l):
            return .object([("event", .string("library")), ("root", .string(l.root)), ("albums", .int(l.albumCount)),
                            ("photos", .int(l.photoCount)),
                            ("scan", .string(l.scanState == .scanning ? "scanning" : "ready"))])
        case .libraryChanges(let c):
            return .object([("event", .string("library_changes")), ("added", .array(c.added.map(JSONValue.string))),
                            ("removed", .array(c.removed.map(JSONValue.string))),
                            ("changed", .array(c.changed.map(JSONValue.string)))])
        case .scanProgress(let p):
            return .object([("event", .string("scan_progress"))] + scanFields(p))
        case let .unknown(type, _):
            return .object([("event", .string("unknown")), ("type", .int(Int(type)))])
        }
    }

    /// Fixed-width columns, right-aligned where `rightAligned[i]`; every cell is `shown`, so one row is one line.
    static func table(_ cells: [[String]], rightAligned: [Bool]) -> String {
        var widths: [Int] = []
        return table(cells, rightAligned: rightAligned, minWidths: &widths)
    }

    /// A table printed in parts: `minWidths` carries the column widths from part to part (they only grow).
    static func table(_ cells: [[String]], rightAligned: [Bool], minWidths widths: inout [Int]) -> String {
        let rows = cells.map { $0.map(shown) }
        guard let first = rows.first else { return "" }
        if widths.count != first.count { widths = [Int](repeating: 0, count: first.count) }
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                if i == row.count - 1 && !rightAligned[i] { return cell }
                return rightAligned[i] ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// UTC "YYYY-MM-DD HH:MM:SS" from unix seconds, without Foundation.
    static func date(_ t: Int64) -> String {
        var time = time_t(t)
        var tmv = tm()
        gmtime_r(&time, &tmv)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(tmv.tm_year + 1900)-\(two(tmv.tm_mon + 1))-\(two(tmv.tm_mday)) \(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec))"
    }
}
