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
        OptionSpec(name: "--album", valueName: "NAME", help: "open this album (default: the session's, else the last used, else the first)",
                   completion: .live("albums")),
        OptionSpec(name: "--photo", valueName: "NAME", help: "make this photo of the album current (default: the session's, else the first)",
                   completion: .live("photos")),
        SymbolOptions.option,
        OptionSpec(name: "-0", valueName: nil, help: "separate the printed paths with NUL instead of newline"),
    ],
    details: """
        Draws on /dev/tty, so stdout carries only the result: vim $(pickerctl pick --single), pickerctl pick | xargs cp -t out/.
        Works on the session named by --session (created sized to the terminal when missing, and closed on exit).
        An existing session is resized to pick's picture pane while pick runs and gets its own pane size back
        on exit: pick leaves it changed only by what the user did (album, photo, picks).
        Opens on --album/--photo when given; else on the session's album and photo; else on the album last
        used with this session name (remembered in $XDG_STATE_HOME/pickerctl, default ~/.local/state), or
        the first album; with the album's first photo current when none is.
        Sixel pictures are fitted to the largest picture the terminal says it draws (XTSMGRAPHICS); one it
        would not draw is named in the pane instead.
        Symbols (--graphics symbols, and auto where nothing better answers) are block elements, which every
        font has; sextant in kitty and foot, which draw them themselves; ascii when the locale (LC_ALL,
        LC_CTYPE, LANG) is not UTF-8. --symbols block|sextant|ascii chooses.
        Exit 0 with the picks (with none: the current photo); 3 when cancelled (prints nothing); 2 without a terminal;
        5 when pickerd cannot be reached or goes away. --json prints the result as `selection --json` does.

        Keys:
          ↑ ↓ / j k       move (in the photo list the photo becomes current at once)
          Tab, → l, ← h   switch pane (in the grid: move left/right)
          Enter           on an album: open it; in the photo list: accept; in the grid: the preview
          Home, End G     first / last (a long album loads in pages as you scroll; End asks for the last page)
          Space           pick / unpick the current photo (refused at the maximum)
          /               filter the focused list as you type, fuzzily as fzf does (best match first, matched
                          characters underlined, N/M in the heading; Enter keeps it, Esc clears it); over the whole album
          g               thumbnail grid on/off (drawn by pickerd in every graphics mode: PNG, sixel or symbols);
                          its heading shows the page, "page 3/56"
          p               the current photo full-screen: n → ↓ j next, p ← ↑ k previous (Home/End first/last),
                          Space picks (the badge shows "✓2 picked"), Esc q Enter back to the list or grid;
                          z shows it at 1:1 (a photo pixel to a screen pixel) and back, h j k l or the
                          arrows then move the view by half a screen, n p still step
          i               the current photo's details (camera, lens, exposure, date, size, format) on the
                          top line instead of the message, following the photo; i again: off
          1-9             the app's choices (pickerd-portal's check boxes and lists, shown in the status row as
                          "1 [x] Compress  2 Encoding: UTF-8"): a check box on/off, a list to its next option
          ?               every key on one screen; any key closes it
          Esc q Ctrl-C    cancel (exit 3)
          mouse           click selects, wheel scrolls

        A red ✗ before a name marks a photo pickerd could not decode; the message names the reason, and it cannot be picked.
        When the locale is not UTF-8, pick's frame and marks are ASCII: | between panes, *2 a pick, > the open
        album, x a broken photo, ... a cut name, <- -> ^ v the arrows; other characters of names show as ?.
        """
) { inv throws(CLIError) in
    let options = try PickOptions(inv)
    let outcome = try runPick(inv, options)
    guard case let .accepted(photos, maxSelection) = outcome, !photos.isEmpty else {
        exit(ExitCode.nothingSelected.rawValue)  // cancelled: nothing on stdout or stderr (the design's nil)
    }
    PickResult.print(photos, maxSelection: maxSelection, options: options, json: inv.json)
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
    let inTmux = environment["TMUX"] != nil
    let tmuxOuter = inTmux && options.graphics == nil ? TmuxOuterTerminal.ask() : nil
    let kind = detection.choose(requested: options.graphics, environment: environment, tmuxOuter: tmuxOuter) {
        TerminalImageRequests.supported($0, by: connection.capabilities)
    }
    let size = terminal.size()
    let layout = PickLayout(columns: size.columns, rows: size.rows,
                            cell: CellPixels.resolve(size: size, cellReply: detection.cellPixels, windowReply: detection.windowPixels),
                            pictureLimit: kind == .sixel ? detection.sixelGeometry.map(PictureLimit.init) : nil,
                            glyphs: PickGlyphs.forLocale(environment))
    let daemon = PickDaemon(connection: connection, session: inv.session) { () throws(ClientError) in
        try PickerConnection(socketPath: inv.socketPath, clientName: "pickerctl")
    }
    let pane = layout.picturePixels(of: layout.imagePane)
    let (opened, host) = try daemon.openSession(width: pane.width, height: pane.height, maxSelection: options.maxSelection)
    defer { if host == nil { _ = try? daemon.call(.sessionClose(name: inv.session)) } }
    let memory = PickMemory.standard()
    let libraryRoot = try daemon.libraryRoot()
    let start = try PickStart.open(opened, album: options.album, photo: options.photo,
                                   remembered: memory.lastAlbum(library: libraryRoot, session: inv.session), daemon: daemon)
    do throws(ClientError) {
        _ = try events.call(.subscribe(Subscription(session: inv.session, library: true)))
    } catch {
        throw PickDaemon.cliError(error)
    }
    let controller = PickController(terminal: terminal, daemon: daemon, events: events, signals: signals,
                                    backend: GraphicsDetection.backend(kind, inTmux: environment["TMUX"] != nil,
                                                                      symbols: options.symbols),
                                    layout: layout, start: start, libraryRoot: libraryRoot, single: options.single)
    // Before the terminal is restored (defers run last-first): a kitty image would outlive the alternate screen.
    defer { controller.clearPictures() }
    // How the session is finished for whoever waits on it (pickerd-portal, a script): cancelled unless
    // the user accepted, also when pick ends on an error.
    var finish = SessionOutcome.cancelled
    defer {
        if let album = controller.session.album { memory.remember(album: album, library: libraryRoot, session: inv.session) }
        // A host's session is the host's: its pane size back as it was (pick only sized it to draw).
        // Before the finish: a change after it would open the session again.
        if let host { daemon.restorePane(host, ifStill: controller.paneSize) }
        _ = try? daemon.call(.sessionFinish(session: inv.session, finish))  // best effort: pick's answer is its output
    }
    let outcome = try controller.run()
    if case .accepted(let photos, _) = outcome, !photos.isEmpty { finish = .accepted }
    return outcome
}
