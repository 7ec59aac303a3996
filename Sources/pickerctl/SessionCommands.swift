import PickerClient
import PickerProtocol

/// `session new|list|show|resize|close`.
let sessionCommands: [CommandSpec] = [
    CommandSpec(words: ["session", "new"], summary: "create a session with a pane size",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "session name (default: --session)")],
                options: [widthOption, heightOption,
                          OptionSpec(name: "--max-selection", valueName: "N", help: "most photos that can be picked (default 10)"),
                          OptionSpec(name: "--title", valueName: "T", help: "title (default \"Photo Library\")"),
                          OptionSpec(name: "--sort", valueName: "name|date", help: "photo order (default name); see `pickerctl sort`")]) { inv throws(CLIError) in
        guard let width = try inv.int("--width", in: paneRange, unit: " px") else {
            throw .usage("session new needs --width W (16…8192 px)")
        }
        let height = try inv.int("--height", in: paneRange, unit: " px")
        let maxSel = try inv.int("--max-selection", in: 1...1000)
        let params = NewSession(name: sessionArgument(inv), width: width, height: height, maxSelection: maxSel,
                                title: inv.value("--title"))
        guard let sort = inv.value("--sort") else { return try printSession(try inv.call(.sessionNew(params)), inv) }
        guard sort == "name" || sort == "date" else { throw .usage("--sort must be 'name' or 'date', not '\(sort)'") }
        // Version 1's sessionNew has no sort field: the order follows on the same connection, in order.
        let conn = try inv.connect()
        do throws(ClientError) { _ = try conn.call(.sessionNew(params)) } catch { throw CLIError(error) }
        guard let state = try setSessionSort(sort, option: "--sort", on: conn, session: params.name) else { return }
        try printSession(.session(state), inv)
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
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "session name (default: --session)")]) { inv throws(CLIError) in
        try printSession(try inv.call(.sessionShow(name: sessionArgument(inv))), inv)
    },
    CommandSpec(words: ["session", "resize"], summary: "change the session's pane size",
                options: [widthOption, heightOption]) { inv throws(CLIError) in
        guard let width = try inv.int("--width", in: paneRange, unit: " px") else {
            throw .usage("session resize needs --width W (16…8192 px)")
        }
        let height = try inv.int("--height", in: paneRange, unit: " px")
        try printSession(try inv.call(.sessionResize(name: inv.session, width: width, height: height)), inv)
    },
    CommandSpec(words: ["session", "close"], summary: "close (delete) a session",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "session name (default: --session)")]) { inv throws(CLIError) in
        let reply = try inv.call(.sessionClose(name: sessionArgument(inv)))
        guard case .sessionClosed(let name) = reply else { throw unexpected(reply) }
        if inv.json { Output.json(.object([("closed", .string(name))])) } else { Output.line("closed session '\(Render.shown(name))'") }
    },
]
