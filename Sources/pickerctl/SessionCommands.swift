import PickerClient
import PickerProtocol

/// The optional NAME of `session new|show|close`.
private let sessionNameArgument = ArgumentSpec(name: "NAME", optional: true, help: "session name (default: --session)")

/// `session new|list|show|resize|close`.
let sessionCommands: [CommandSpec] = [
    CommandSpec(words: ["session", "new"], summary: "create a session with a pane size",
                arguments: [sessionNameArgument],
                options: [widthOption, heightOption,
                          OptionSpec(name: "--max-selection", valueName: "N", help: "most photos that can be picked (default 10)"),
                          OptionSpec(name: "--title", valueName: "T", help: "title (default \"Photo Library\")"),
                          OptionSpec(name: "--sort", valueName: "name|date", help: "photo order (default name); see `pickerctl sort`",
                                     completion: .words(sortWords)),
                          OptionSpec(name: "--filter", valueName: "GLOBS",
                                     help: "show only photos whose file name matches one of these space-separated globs (case-sensitive: '*.png *.PNG')"),
                          OptionSpec(name: "--exist-ok", valueName: nil, help: "a session of that name already existing is not an error: it is shown, unchanged")],
                details: "With --exist-ok, scripts can run `session new` every time: an existing session is left as it is\n(its pane size, title and picks are not changed) and printed, exit 0.") { inv throws(CLIError) in
        guard let width = try inv.paneSide("--width") else {
            throw .usage("session new needs --width W (\(paneRangeText) px)")
        }
        let height = try inv.paneSide("--height")
        let maxSel = try inv.int("--max-selection", in: 1...1000)
        let filter = inv.value("--filter").map { $0.split(separator: " ").map(String.init) } ?? []
        if inv.value("--filter") != nil && filter.isEmpty { throw .usage("--filter needs at least one glob, such as '*.png'") }
        let params = NewSession(name: sessionArgument(inv), width: width, height: height, maxSelection: maxSel,
                                title: inv.value("--title"), filter: filter)
        let sort = inv.value("--sort")
        if let sort, sort != "name" && sort != "date" { throw .usage("--sort must be 'name' or 'date', not '\(sort)'") }
        // Version 1's sessionNew has no sort field: the order follows on the same connection, in order.
        let conn = try inv.connect()
        let created: Reply
        do throws(ClientError) {
            created = try conn.call(.sessionNew(params))
        } catch .server(let e) where e.code == .sessionExists && inv.flag("--exist-ok") {
            // Left as it is: no resize, no new sort; the existing session is shown.
            return try printSession(try call(conn, .sessionShow(name: params.name)), inv)
        } catch {
            throw CLIError(error)
        }
        if let state = try setSessionSort(sort, option: "--sort", on: conn, session: params.name) {
            return try printSession(.session(state), inv)
        }
        try printSession(created, inv)
    },
    CommandSpec(words: ["session", "list"], summary: "list sessions") { inv throws(CLIError) in
        let reply = try inv.call(.sessionList)
        guard case .sessionList(let list) = reply else { throw unexpected(reply) }
        if inv.json {
            Output.json(.array(list.map(Render.sessionJSON)))
        } else if list.isEmpty {
            Output.line("no sessions; create one with: pickerctl session new NAME --width W [--height H]")
        } else {
            let rows = [["NAME", "PANE", "ALBUM", "PHOTO", "PICKED"]] + list.map {
                [$0.name, Render.pane($0.width, $0.height), $0.album ?? "-", $0.photo ?? "-", "\($0.selectionCount)/\($0.maxSelection)"]
            }
            Output.line(Render.table(rows, rightAligned: [false, false, false, false, true]))
        }
    },
    CommandSpec(words: ["session", "show"], summary: "show a session",
                arguments: [sessionNameArgument.completing(.live("sessions"))]) { inv throws(CLIError) in
        try printSession(try inv.call(.sessionShow(name: sessionArgument(inv))), inv)
    },
    CommandSpec(words: ["session", "resize"], summary: "change the session's pane size",
                options: [widthOption, heightOption],
                details: "--height alone keeps the width; --width alone bounds the image by width only (no height).") { inv throws(CLIError) in
        let width = try inv.paneSide("--width")
        let height = try inv.paneSide("--height")
        guard width != nil || height != nil else {
            throw .usage("session resize needs --width W and/or --height H (\(paneRangeText) px)")
        }
        let conn = try inv.connect()
        var newWidth = width ?? 0
        if width == nil {
            guard case .session(let current) = try call(conn, .sessionShow(name: inv.session)) else {
                throw CLIError(message: "unexpected reply from pickerd", exitCode: .failure)
            }
            newWidth = current.width
        }
        try printSession(try call(conn, .sessionResize(name: inv.session, width: newWidth, height: height)), inv)
    },
    CommandSpec(words: ["session", "close"], summary: "close (delete) a session",
                arguments: [sessionNameArgument.completing(.live("sessions"))]) { inv throws(CLIError) in
        let reply = try inv.call(.sessionClose(name: sessionArgument(inv)))
        guard case .sessionClosed(let name) = reply else { throw unexpected(reply) }
        if inv.json { Output.json(.object([("closed", .string(name))])) } else { Output.line("closed session '\(Render.shown(name))'") }
    },
]
