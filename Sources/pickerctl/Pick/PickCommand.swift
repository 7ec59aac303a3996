#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol
import PickerSystem

/// `pickerctl pick`: its row in the command table.
let pickCommand = CommandSpec(
    words: ["pick"],
    summary: "pick photos full-screen in the terminal; prints the picked absolute paths",
    options: [
        OptionSpec(name: "--max", valueName: "N", help: "most photos to pick (1…1000; for a session pick creates)"),
        OptionSpec(name: "--single", valueName: nil, help: "pick one photo: Enter or Space accepts the current photo"),
        OptionSpec(name: "--graphics", valueName: "auto|kitty|iterm|sixel|symbols|none", help: "how pictures are drawn (default auto: asks the terminal)"),
        OptionSpec(name: "-0", valueName: nil, help: "separate the printed paths with NUL instead of newline"),
    ],
    details: """
        Draws on /dev/tty, so stdout carries only the result: vim $(pickerctl pick --single), pickerctl pick | xargs cp -t out/.
        Works on the session named by --session (created sized to the terminal when missing, and closed on exit).
        Exit 0 with the picks (with none: the current photo); 3 when cancelled (prints nothing); 2 without a terminal;
        5 when pickerd cannot be reached or goes away. --json prints the result as `selection --json` does.

        Keys:
          ↑ ↓ / j k       move (in the photo list the photo becomes current at once)
          Tab, → l, ← h   switch pane (in the grid: move left/right)
          Enter           on an album: open it; in the photo list or grid: accept
          Space           pick / unpick the current photo (refused at the maximum)
          /               filter the focused list as you type (Enter keeps it, Esc clears it)
          g               thumbnail grid on/off
          p               the current photo full-screen; any key returns
          Esc q Ctrl-C    cancel (exit 3)
          mouse           click selects, wheel scrolls
        """
) { inv throws(CLIError) in
    let options = try PickOptions(inv)
    let outcome = try runPick(inv, options)
    guard case let .accepted(photos, maxSelection) = outcome, !photos.isEmpty else {
        exit(ExitCode.nothingSelected.rawValue)  // cancelled: nothing on stdout or stderr (the design's nil)
    }
    PickResult.print(photos, maxSelection: maxSelection, options: options, json: inv.json)
}

/// pick's own options, checked before the terminal or the socket is touched.
struct PickOptions {
    var maxSelection: Int?
    var single: Bool
    var graphics: GraphicsKind?
    var nulSeparated: Bool

    init(_ inv: Invocation) throws(CLIError) {
        single = inv.flag("--single")
        maxSelection = try inv.int("--max", in: 1...1000) ?? (single ? 1 : nil)
        nulSeparated = inv.flag("-0")
        let raw = inv.value("--graphics") ?? "auto"
        if raw == "auto" {
            graphics = nil
        } else if let kind = GraphicsKind(rawValue: raw) {
            graphics = kind
        } else {
            throw .usage("--graphics must be auto, kitty, iterm, sixel, symbols or none, not '\(raw)'")
        }
        if nulSeparated && inv.json { throw .usage("give -0 or --json, not both") }
    }
}

/// Sets up the terminal, the connections and the session, runs the picker, and undoes it all on every
/// way out (the terminal is restored before anything is printed).
private func runPick(_ inv: Invocation, _ options: PickOptions) throws(CLIError) -> PickOutcome {
    let terminal = try TerminalSession()
    let connection = try inv.connect()
    let events = try inv.connect()
    let signals: SignalDescriptor
    do {
        signals = try SignalDescriptor([SIGWINCH, SIGTERM, SIGINT, SIGHUP])
    } catch {
        throw CLIError(message: "pick: \(error)", exitCode: .failure)
    }
    try terminal.start()
    defer { terminal.restore() }
    let environment = PickEnvironment.current()
    let detection = PickDetection.run(on: terminal, inTmux: environment["TMUX"] != nil)
    let kind = detection.choose(requested: options.graphics, environment: environment) {
        TerminalImageRequests.supported($0, by: connection.capabilities)
    }
    let size = terminal.size()
    let layout = PickLayout(columns: size.columns, rows: size.rows,
                            cell: CellPixels.resolve(size: size, cellReply: detection.cellPixels, windowReply: detection.windowPixels))
    let daemon = PickDaemon(connection: connection, session: inv.session)
    let pane = layout.pixels(of: layout.imagePane)
    let (session, created) = try daemon.openSession(width: pane.width, height: pane.height, maxSelection: options.maxSelection)
    defer { if created { _ = try? daemon.call(.sessionClose(name: inv.session)) } }
    do throws(ClientError) {
        _ = try events.call(.subscribe(Subscription(session: inv.session, library: true)))
    } catch {
        throw PickDaemon.cliError(error)
    }
    let controller = PickController(terminal: terminal, daemon: daemon, events: events, signals: signals,
                                    backend: GraphicsDetection.backend(kind, inTmux: environment["TMUX"] != nil),
                                    layout: layout, session: session, libraryRoot: try daemon.libraryRoot(), single: options.single)
    // Before the terminal is restored (defers run last-first): a kitty image would outlive the alternate screen.
    defer { controller.clearPictures() }
    return try controller.run()
}

/// The few environment variables detection reads.
enum PickEnvironment {
    static func current() -> [String: String] {
        var env: [String: String] = [:]
        for key in ["TMUX", "TERM", "TERM_PROGRAM", "KONSOLE_VERSION", "KITTY_WINDOW_ID"] {
            if let value = getenv(key) { env[key] = String(cString: value) }
        }
        return env
    }
}

/// Asks the terminal what it can do: the kitty query (through tmux's passthrough inside tmux), the pixel
/// sizes, then DA1, which every terminal answers, so its reply ends the wait.
enum PickDetection {
    static func run(on terminal: TerminalSession, inTmux: Bool) -> GraphicsDetection {
        var detection = GraphicsDetection()
        var parser = TerminalInputParser()
        let kitty = Passthrough(enabled: inTmux).wrap(Array(GraphicsDetection.kittyQuery.utf8))
        terminal.write(kitty + Array((GraphicsDetection.sizeQueries + GraphicsDetection.deviceAttributesQuery).utf8))
        // A terminal that answers nothing (rare) costs a second; tmux answers DA1 itself before the outer
        // terminal's kitty reply comes back through it, so wait a little longer there.
        var rounds = 0
        var afterFinish = 0
        while rounds < 20 && afterFinish < (inTmux ? 3 : 1) {
            rounds += 1
            if detection.finished { afterFinish += 1 }
            guard let ready = try? Terminal.waitReadable([terminal.descriptor], timeoutMilliseconds: 50), ready[0] else { continue }
            for input in parser.feed(terminal.read()) { detection.note(input) }
        }
        return detection
    }
}

/// Prints the accepted photos: absolute paths one a line, NUL-separated with -0, or `selection --json`'s shape.
enum PickResult {
    static func print(_ photos: [SelectedPhoto], maxSelection: Int, options: PickOptions, json: Bool) {
        if json {
            Output.json(.object([("max_selection", .int(maxSelection)), ("count", .int(photos.count)),
                                 ("photos", .array(photos.enumerated().map { i, p in
                .object([("order", .int(i + 1)), ("album", .string(p.album)), ("name", .string(p.name)),
                         ("width", .int(p.width)), ("height", .int(p.height)), ("path", .string(p.path)),
                         ("absolute_path", .string(p.absolutePath))])
            }))]))
            return
        }
        let separator: UInt8 = options.nulSeparated ? 0 : 0x0a
        // Paths go out exactly as they are for $(…) and xargs; on a terminal, control characters are shown escaped.
        let toTerminal = Terminal.isTerminal(1)
        var bytes: [UInt8] = []
        for photo in photos {
            bytes += Array((toTerminal ? InertText.escaped(photo.absolutePath) : photo.absolutePath).utf8) + [separator]
        }
        _ = Output.writeAll(1, bytes)
    }
}
