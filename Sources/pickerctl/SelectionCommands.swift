import PickerClient
import PickerProtocol

private func printSelection(_ reply: Reply, _ inv: Invocation, changed: String? = nil) throws(CLIError) {
    guard case .selection(let list) = reply else { throw unexpected(reply) }
    if inv.json {
        Output.json(.object([("max_selection", .int(list.maxSelection)), ("count", .int(list.photos.count)),
                             ("photos", .array(list.photos.enumerated().map { i, p in
            .object([("order", .int(i + 1)), ("album", .string(p.album)), ("name", .string(p.name)),
                     ("width", .int(p.width)), ("height", .int(p.height)), ("path", .string(p.path)),
                     ("absolute_path", .string(p.absolutePath))])
        }))]))
        return
    }
    if let changed { Output.line(changed) }
    if list.photos.isEmpty {
        Output.line("nothing picked (0 of \(list.maxSelection))")
        return
    }
    let rows = list.photos.enumerated().map { i, p in ["\(i + 1)", p.album, p.name, "\(p.width)x\(p.height)", p.path] }
    Output.line(Render.table(rows, rightAligned: [true, false, false, true, false]))
    Output.line("\(list.photos.count) of \(list.maxSelection) picked")
}


/// The pick list: toggle a photo, list it, clear it.
let selectionCommands: [CommandSpec] = [
    CommandSpec(words: ["toggle"], summary: "add a photo of the selected album to the pick list, or remove it",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "photo file name", completion: .live("photos"))],
                options: [indexOption],
                details: "Refused, changing nothing, when the pick list is full (session new --max-selection).") { inv throws(CLIError) in
        let selector = try inv.selector(what: "photo")
        // One connection for both: the list before tells whether the toggle picked or unpicked.
        let conn = try inv.connect()
        let before: Reply, reply: Reply
        do throws(ClientError) {
            before = try conn.call(.selection(session: inv.session))
            reply = try conn.call(.toggle(session: inv.session, selector))
        } catch {
            throw CLIError(error)
        }
        var note: String? = nil
        if case .selection(let old) = before, case .selection(let new) = reply {
            let oldPaths = Set(old.photos.map(\.path))
            if let added = new.photos.first(where: { !oldPaths.contains($0.path) }) {
                note = "picked \(Render.shown(added.name)) (\(new.photos.count) of \(new.maxSelection))"
            } else if let removed = old.photos.first(where: { p in !new.photos.contains { $0.path == p.path } }) {
                note = "unpicked \(Render.shown(removed.name)) (\(new.photos.count) of \(new.maxSelection))"
            }
        }
        if inv.json { try printSelection(reply, inv) } else if let note { Output.line(note) } else { try printSelection(reply, inv) }
    },
    CommandSpec(words: ["selection"], summary: "the pick list in pick order: album, name, size, path (--json adds absolute paths)",
                options: [OptionSpec(name: "--paths", valueName: nil, help: "only the absolute paths, one per line (for xargs)"),
                          OptionSpec(name: "-0", valueName: nil, help: "with --paths: end each path with a NUL byte instead (xargs -0)")],
                details: "--paths prints each picked photo's absolute path, one per line in pick order, with control and bidi\ncharacters shown escaped (a newline in a name reads `\\n`), so one line is one photo; with -0 each path is\nexactly as it is, followed by a NUL, so any file name survives `xargs -0`. Nothing picked: no output.") { inv throws(CLIError) in
        if inv.flag("-0") && !inv.flag("--paths") { throw .usage("-0 goes with --paths") }
        if inv.flag("--paths") && inv.json { throw .usage("--paths and --json are two formats: give one") }
        let reply = try inv.call(.selection(session: inv.session))
        guard inv.flag("--paths") else { return try printSelection(reply, inv) }
        guard case .selection(let list) = reply else { throw unexpected(reply) }
        Output.paths(list.photos.map(\.absolutePath), nulTerminated: inv.flag("-0"))
    },
    CommandSpec(words: ["clear-selection"], summary: "empty the pick list") { inv throws(CLIError) in
        let reply = try inv.call(.clearSelection(session: inv.session))
        if inv.json { try printSelection(reply, inv) } else { Output.line("pick list cleared") }
    },
]
