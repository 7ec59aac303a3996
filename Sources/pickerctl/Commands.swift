#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol

private let widthOption = OptionSpec(name: "--width", valueName: "W", help: "pane width in px (16…8192)")
private let heightOption = OptionSpec(name: "--height", valueName: "H", help: "pane height in px (16…8192); omit to bound by width only")
private let indexOption = OptionSpec(name: "--index", valueName: "N", help: "pick by 1-based index instead of name")
private let paneRange = 16...8192

/// Prints a session state reply (text or JSON).
private func printSession(_ reply: Reply, _ inv: Invocation) throws(CLIError) {
    guard case .session(let s) = reply else { throw unexpected(reply) }
    if inv.json { Output.json(Render.sessionJSON(s)) } else { Output.line(Render.sessionText(s)) }
}

func unexpected(_ reply: Reply) -> CLIError {
    CLIError(message: "unexpected reply \(reply.messageType) from pickerd", exitCode: .failure)
}

/// Writes an image to -o FILE or stdout; with --json, the image must go to -o and stdout gets its description.
private func writeImage(_ img: EncodedImage, _ inv: Invocation) throws(CLIError) {
    if inv.json {
        guard let path = inv.outputPath else { throw .usage("--json needs -o FILE for the image itself") }
        try Output.binary(ImageFormatOptions.outputBytes(img), to: path, terminalText: img.format.isTerminalText)
        Output.json(.object([("format", .string(img.format.optionName)), ("width", .int(img.width)),
                             ("height", .int(img.height)), ("bytes", .int(img.data.count)), ("path", .string(path))]))
    } else {
        try Output.binary(ImageFormatOptions.outputBytes(img), to: inv.outputPath, terminalText: img.format.isTerminalText)
    }
}

/// Session named by the optional NAME argument, else the global session.
private func sessionArgument(_ inv: Invocation) -> String { inv.positional(0) ?? inv.session }

let commands: [CommandSpec] = [
    CommandSpec(words: ["ping"], summary: "check the daemon answers; prints its version") { inv throws(CLIError) in
        let conn = try inv.connect()
        let reply: Reply
        do throws(ClientError) { reply = try conn.call(.ping) } catch { throw CLIError(error) }
        guard case .pong(let version) = reply else { throw unexpected(reply) }
        if inv.json {
            Output.json(.object([("version", .string(version)), ("protocol", .int(Int(conn.capabilities.version))),
                                 ("socket", .string(inv.socketPath))]))
        } else {
            Output.line(Render.shown(version))
        }
    },
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
    CommandSpec(words: ["albums"], summary: "list albums: index, name, photo count") { inv throws(CLIError) in
        let conn = try inv.connect()
        let reply: Reply
        do throws(ClientError) { reply = try conn.call(.albums) } catch { throw CLIError(error) }
        guard case .albums(let albums) = reply else { throw unexpected(reply) }
        defer { try? noteIfScanning(conn) }
        if inv.json {
            Output.json(.array(albums.map { .object([("index", .int($0.index)), ("name", .string($0.name)), ("photos", .int($0.photoCount))]) }))
        } else {
            let rows = albums.map { ["\($0.index)", $0.name, "\($0.photoCount)"] }
            Output.line(Render.table(rows, rightAligned: [true, false, true]))
        }
    },
    CommandSpec(words: ["select-album"], summary: "select an album by name or --index; clears the current photo",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "album name, e.g. 2024/Kyoto or \"All Photos\"")],
                options: [indexOption]) { inv throws(CLIError) in
        let selector = try inv.selector(what: "album")
        try printSession(try inv.call(.selectAlbum(session: inv.session, selector)), inv)
    },
    CommandSpec(words: ["select-photo"], summary: "make a photo of the selected album current, by name or --index",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "photo file name")],
                options: [indexOption]) { inv throws(CLIError) in
        let selector = try inv.selector(what: "photo")
        try printSession(try inv.call(.selectPhoto(session: inv.session, selector)), inv)
    },
    CommandSpec(words: ["next"], summary: "move to the next photo in the album") { inv throws(CLIError) in
        try printSession(try inv.call(.stepPhoto(session: inv.session, .next)), inv)
    },
    CommandSpec(words: ["prev"], summary: "move to the previous photo in the album") { inv throws(CLIError) in
        try printSession(try inv.call(.stepPhoto(session: inv.session, .previous)), inv)
    },
    CommandSpec(words: ["status"], summary: "title, message, album, current photo, pane size, selection count") { inv throws(CLIError) in
        try printSession(try inv.call(.status(session: inv.session)), inv)
    },
    CommandSpec(words: ["get-image"], summary: "the current photo, upright, scaled to fit the pane (PNG by default)",
                options: [ImageFormatOptions.format, ImageFormatOptions.cells,
                          OptionSpec(name: "--quality", valueName: "Q", help: "JPEG/WebP quality 1…100 (default 85 / 80)"),
                          OptionSpec(name: "--no-cache", valueName: nil, help: "render afresh, bypassing the daemon's cache")],
                binaryOutput: true,
                details: "Exit code 3 when no photo is selected. Never writes image data to a terminal.\nWith --json (and -o FILE), prints the image's format, size and byte count.\n" + ImageFormatOptions.details) { inv throws(CLIError) in
        let format = try ImageFormatOptions.format(inv)
        let cells = try ImageFormatOptions.cells(inv, for: format)
        let quality = try inv.int("--quality", in: 1...100)
        let reply = try inv.call(.getImage(ImageRequest(session: inv.session, format: format, quality: quality,
                                                         noCache: inv.flag("--no-cache"), cells: cells)))
        guard case .image(let img) = reply else { throw unexpected(reply) }
        try writeImage(img, inv)
    },
]

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

/// Commands of the gallery design: the pick list, the thumbnail grid and the full-screen preview.
let galleryCommands: [CommandSpec] = [
    CommandSpec(words: ["toggle"], summary: "add a photo of the selected album to the pick list, or remove it",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "photo file name")],
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
    CommandSpec(words: ["selection"], summary: "the pick list in pick order: album, name, size, path (--json adds absolute paths)") { inv throws(CLIError) in
        try printSelection(try inv.call(.selection(session: inv.session)), inv)
    },
    CommandSpec(words: ["clear-selection"], summary: "empty the pick list") { inv throws(CLIError) in
        let reply = try inv.call(.clearSelection(session: inv.session))
        if inv.json { try printSelection(reply, inv) } else { Output.line("pick list cleared") }
    },
    CommandSpec(words: ["thumbnails"], summary: "the selected album as a grid image (PNG); --json prints the geometry",
                options: [OptionSpec(name: "--size", valueName: "N", help: "cell size in px, 16…1024 (default 100)"),
                          OptionSpec(name: "--page", valueName: "N", help: "page when the pane height cuts the grid (default 1)")],
                binaryOutput: true, jsonReplacesBinary: true,
                details: "Cells are filled and centre-cropped; picked photos sit under a 40% white rounded overlay and the\ncurrent photo is outlined. With --json, prints columns, rows, pages and each photo's cell rectangle\ninstead of the image.") { inv throws(CLIError) in
        let size = try inv.int("--size", in: 16...1024, unit: " px")
        let page = try inv.int("--page", in: 1...100_000)
        let reply = try inv.call(.thumbnails(ThumbnailRequest(session: inv.session, cellSize: size, page: page,
                                                              geometryOnly: inv.json)))
        guard case .thumbnails(let sheet) = reply else { throw unexpected(reply) }
        if inv.json {
            let g = sheet.geometry
            Output.json(.object([
                ("width", .int(g.width)), ("height", .int(g.height)), ("cell_size", .int(g.cellSize)),
                ("spacing", .int(g.spacing)), ("padding", .int(g.padding)), ("columns", .int(g.columns)),
                ("rows", .int(g.rows)), ("page", .int(g.page)), ("pages", .int(g.pages)),
                ("cells", .array(g.cells.map { c in
                    .object([("index", .int(c.index)), ("name", .string(c.name)), ("x", .int(c.x)), ("y", .int(c.y)),
                             ("width", .int(c.size)), ("height", .int(c.size)), ("selected", .bool(c.selected)),
                             ("current", .bool(c.current))])
                })),
            ]))
            return
        }
        guard let image = sheet.image else { throw CLIError(message: "pickerd sent no grid image", exitCode: .failure) }
        try Output.binary(image.data, to: inv.outputPath)
    },
    CommandSpec(words: ["preview"], summary: "the current photo scaled to fit a full screen (default 1920x1080), centred on black",
                options: [OptionSpec(name: "--width", valueName: "W", help: "screen width in px (default 1920)"),
                          OptionSpec(name: "--height", valueName: "H", help: "screen height in px (default 1080)"),
                          ImageFormatOptions.format, ImageFormatOptions.cells,
                          OptionSpec(name: "--quality", valueName: "Q", help: "JPEG/WebP quality 1…100")],
                binaryOutput: true,
                details: "Unlike get-image, the photo is scaled up when the screen is larger. Exit code 3 when no photo is selected.\n" + ImageFormatOptions.details) { inv throws(CLIError) in
        let width = try inv.int("--width", in: paneRange, unit: " px") ?? 1920
        let height = try inv.int("--height", in: paneRange, unit: " px") ?? 1080
        let format = try ImageFormatOptions.format(inv)
        let cells = try ImageFormatOptions.cells(inv, for: format)
        let quality = try inv.int("--quality", in: 1...100)
        let reply = try inv.call(.preview(PreviewRequest(session: inv.session, width: width, height: height,
                                                         format: format, quality: quality, cells: cells)))
        guard case .image(let img) = reply else { throw unexpected(reply) }
        try writeImage(img, inv)
    },
]

/// Commands for integrations: events.
let integrationCommands: [CommandSpec] = [
    CommandSpec(words: ["watch"], summary: "print the session's events (album, photo, selection, pane size, closed) until interrupted",
                options: [OptionSpec(name: "--library", valueName: nil, help: "also print library changes (photos added or removed)")],
                details: "One line per event; with --json, one JSON object per line.") { inv throws(CLIError) in
        let conn = try inv.connect()
        // Interrupting is how watch ends: exit 0, even if the parent left SIGINT ignored.
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        do throws(ClientError) {
            _ = try conn.call(.subscribe(Subscription(session: inv.session, library: inv.flag("--library"))))
            while true {
                let frame = try conn.nextFrame()
                // The daemon ends the subscription of a reader that fell too far behind, with an error.
                if case .error(let e)? = try? Reply(frame: frame) { throw ClientError.server(e) }
                guard frame.isEvent, let event = try? Event(frame: frame) else { continue }
                if inv.json {
                    Output.streamJSON(Render.eventJSON(event))
                } else {
                    // One event may be several lines (one per photo added or removed); names are escaped.
                    for line in Render.eventText(event).split(separator: "\n") { Output.streamLine(String(line)) }
                }
            }
        } catch {
            throw CLIError(error)
        }
    },
]

/// Shell completions, and the hidden helper they call for live names.
let completionCommands: [CommandSpec] = [
    CommandSpec(words: ["completions"], summary: "print a completion script for bash, zsh or fish",
                arguments: [ArgumentSpec(name: "SHELL", optional: false, help: "bash, zsh or fish")],
                details: "bash: source <(pickerctl completions bash)\nzsh:  pickerctl completions zsh > ~/.zfunc/_pickerctl\nfish: pickerctl completions fish > ~/.config/fish/completions/pickerctl.fish\nAlbum and photo names are completed live from the running daemon.") { inv throws(CLIError) in
        let shell = inv.positional(0) ?? ""
        guard let script = Completions.script(for: shell, commands: allCommands) else {
            throw .usage("completions: unknown shell '\(shell)'; use bash, zsh or fish")
        }
        print(script, terminator: "")
    },
]

/// Not listed in --help: prints album names, or photo names of the session's album, one per line.
let hiddenCompleteCommand = CommandSpec(words: ["__complete"], summary: "names for shell completion",
                                        arguments: [ArgumentSpec(name: "WHAT", optional: false, help: "albums or photos")]) { inv throws(CLIError) in
    switch inv.positional(0) {
    case "albums":
        guard case .albums(let albums) = try inv.call(.albums) else { return }
        Completions.printNames(albums.map(\.name))
    case "photos":
        guard case .photos(let list) = try inv.call(.photos(session: inv.session, sort: .name)) else { return }
        Completions.printNames(list.photos.map(\.name))
    default:
        throw .usage("__complete albums|photos")
    }
}
