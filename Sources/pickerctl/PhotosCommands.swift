#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol

/// Rows fetched per request: pages of 1000 keep a 100,000-photo listing flat in memory on both ends.
private let pageSize = 1000
/// The virtual album whose rows come from many folders (its text rows show the relative path).
private let allPhotosName = "All Photos"

/// The session orders, as `--sort` and `sort` take them.
let sortWords = ["name", "date"]
private let sortValues = sortWords.joined(separator: "|")

/// The wire order for a `name|date` word.
private func parseSort(_ raw: String, option: String) throws(CLIError) -> PhotoSort {
    switch raw {
    case "name": return .name
    case "date": return .date
    default: throw .usage("\(option) must be 'name' or 'date', not '\(raw)'")
    }
}

private func sortName(_ sort: PhotoSort) -> String { sort == .date ? "date" : "name" }

/// Sets the session's order on `conn`; nil when `raw` is nil.
@discardableResult
func setSessionSort(_ raw: String?, option: String, on conn: PickerConnection, session: String) throws(CLIError) -> SessionState? {
    guard let raw else { return nil }
    let sort = try parseSort(raw, option: option)
    let reply: Reply
    do throws(ClientError) { reply = try conn.call(.setSort(session: session, sort)) } catch { throw CLIError(error) }
    guard case .session(let state) = reply else {
        throw CLIError(message: "unexpected reply \(reply.messageType) from pickerd", exitCode: .failure)
    }
    return state
}

/// Prints pages as they arrive: text rows with column widths that only grow, or one JSON document
/// written piece by piece.
private struct PagePrinter {
    let json: Bool
    /// The library's root as the daemon resolved it, for `absolute_path` (JSON only).
    let root: String
    private var widths: [Int] = []
    private var rowsPrinted = 0
    private var started = false

    init(json: Bool, root: String) {
        self.json = json
        self.root = root
    }

    mutating func print(_ page: PhotoPage) {
        if json { printJSON(page) } else { printText(page) }
    }

    private mutating func printText(_ page: PhotoPage) {
        let showPath = page.album == allPhotosName
        let rows = page.photos.map { p in
            ["\(p.index)", showPath ? p.path : p.name, "\(p.width)x\(p.height)", "\(p.bytes)", p.format.displayName,
             Render.date(p.date) + (p.broken.map { "  broken: \($0)" } ?? "")]
        }
        guard !rows.isEmpty else { return }
        Output.line(Render.table(rows, rightAligned: [true, false, true, true, false, false], minWidths: &widths))
    }

    private mutating func printJSON(_ page: PhotoPage) {
        if !started {
            started = true
            let head = JSONValue.object([("album", .string(page.album)), ("sort", .string(sortName(page.sort))),
                                         ("total", .int(page.total)), ("offset", .int(page.offset))]).serialized
            Output.raw(String(head.dropLast()) + ",\"photos\":[")
        }
        for p in page.photos {
            let row: JSONValue = .object([
                ("index", .int(p.index)), ("name", .string(p.name)), ("path", .string(p.path)),
                ("absolute_path", .string(root + "/" + p.path)),
                ("width", .int(p.width)), ("height", .int(p.height)), ("bytes", .int(Int(p.bytes))),
                ("format", .string(p.format.displayName)), ("date", .string(Render.date(p.date))),
                ("date_source", .string(p.dateSource == .exif ? "exif" : "mtime")),
            ] + (p.broken.map { [("broken", JSONValue.string($0))] } ?? []))
            Output.raw((rowsPrinted == 0 ? "" : ",") + row.serialized)
            rowsPrinted += 1
        }
    }
}

/// Pages through the selected album from `offset`, at most `limit` rows (nil: to the end).
private func listPhotos(_ conn: PickerConnection, session: String, offset: Int, limit: Int?, json: Bool) throws(CLIError) {
    var printer = PagePrinter(json: json, root: json ? try libraryRoot(conn) : "")
    var next = offset
    var remaining = limit ?? Int.max
    var album: String? = nil
    while remaining > 0 {
        let reply: Reply
        do throws(ClientError) {
            reply = try conn.call(.photosPage(PhotosPageRequest(session: session, offset: next, limit: min(pageSize, remaining),
                                                                 markBroken: true)))
        } catch {
            throw CLIError(error)
        }
        guard case .photosPage(let page) = reply else {
            throw CLIError(message: "unexpected reply \(reply.messageType) from pickerd", exitCode: .failure)
        }
        album = page.album
        printer.print(page)
        next += page.photos.count
        remaining -= page.photos.count
        if page.photos.isEmpty || next >= page.total { break }
    }
    if json && album != nil { Output.raw("]}\n") }
}

/// The library root with symlinks resolved, as the daemon joins it into `selection`'s absolute paths.
private func libraryRoot(_ conn: PickerConnection) throws(CLIError) -> String {
    let reply = try call(conn, .libraryInfo)
    guard case .libraryInfo(let info) = reply else { throw unexpected(reply) }
    guard let resolved = realpath(info.root, nil) else { return info.root }
    defer { free(resolved) }
    return String(cString: resolved)
}

let photosCommands: [CommandSpec] = [
    CommandSpec(words: ["photos"], summary: "list the selected album's photos in the session's order",
                options: [OptionSpec(name: "--sort", valueName: sortValues, help: "set the session's order first (as `pickerctl sort`)",
                                     completion: .words(sortWords)),
                          OptionSpec(name: "--offset", valueName: "N", help: "skip the first N rows (default 0)"),
                          OptionSpec(name: "--limit", valueName: "N", help: "print at most N rows (default: all)")],
                details: "Rows are fetched 1000 at a time and printed as they arrive. In All Photos the name column shows\neach photo's path relative to the library. A photo that failed to decode ends its row with\n`broken: REASON` (--json: \"broken\": \"REASON\") until its file changes. An offset past the last photo exits 4.") { inv throws(CLIError) in
        let offset = try inv.int("--offset", in: 0...Int(Int32.max)) ?? 0
        let limit = try inv.int("--limit", in: 1...Int(Int32.max))
        if let raw = inv.value("--sort") { _ = try parseSort(raw, option: "--sort") }
        let conn = try inv.connect()
        try setSessionSort(inv.value("--sort"), option: "--sort", on: conn, session: inv.session)
        try listPhotos(conn, session: inv.session, offset: offset, limit: limit, json: inv.json)
        try noteIfScanning(conn)
    },
    CommandSpec(words: ["sort"], summary: "set the session's photo order: name, or capture date (newest first)",
                arguments: [ArgumentSpec(name: "ORDER", optional: false, help: "name or date", completion: .words(sortWords))],
                details: "name: natural file-name order (All Photos stays newest first).\ndate: newest first by EXIF DateTimeOriginal; photos without one come after, in name order, then by mtime.\nphotos, select-photo --index, toggle --index, next/prev and thumbnails all follow the session's order.") { inv throws(CLIError) in
        let raw = inv.positional(0) ?? ""
        _ = try parseSort(raw, option: "sort")
        let conn = try inv.connect()
        guard let state = try setSessionSort(raw, option: "sort", on: conn, session: inv.session) else { return }
        if inv.json {
            guard case .object(let fields) = Render.sessionJSON(state) else { return }
            Output.json(.object([("sort", .string(raw))] + fields))
        } else {
            Output.line("sort:      \(raw)\n" + Render.sessionText(state))
        }
    },
]
