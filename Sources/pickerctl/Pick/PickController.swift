#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol
import PickerSystem

/// How a pick ended.
enum PickOutcome {
    /// Enter: the picks in order, or the current photo when nothing was picked; and the session's maximum.
    case accepted([SelectedPhoto], maxSelection: Int)
    case cancelled
}

/// The picker's event loop: terminal input, session events and signals in; model updates, daemon calls
/// and screen updates out. Single-threaded: one poll over the terminal, the event connection and a signalfd.
final class PickController {
    private let terminal: TerminalSession
    private let daemon: PickDaemon
    private let events: PickerConnection
    private let signals: SignalDescriptor
    private let backend: GraphicsBackend
    private let libraryRoot: String
    private var parser = TerminalInputParser()
    private var model: PickerModel
    private var layout: PickLayout
    private var renderer = PickRenderer()
    private let pictures: PickPictures
    private var outcome: PickOutcome? = nil
    private let startsOnAlbums: Bool
    /// `selectPhoto`s posted and not yet heard back from, by ticket (the album position asked for).
    private var asks = PhotoAsks()
    private var askTickets: [Int: Int] = [:]
    /// The `photoInfo` in flight for `i`'s summary.
    private var summaryAsk = PhotoSummaryAsk()

    init(terminal: TerminalSession, daemon: PickDaemon, events: PickerConnection, signals: SignalDescriptor,
         backend: GraphicsBackend, layout: PickLayout, start: PickStart, libraryRoot: String, single: Bool) {
        self.terminal = terminal
        self.daemon = daemon
        self.events = events
        self.signals = signals
        self.backend = backend
        self.layout = layout
        self.libraryRoot = libraryRoot
        model = PickerModel(session: start.session, single: single)
        startsOnAlbums = start.albumIsFallback
        pictures = PickPictures(backend: backend, daemon: daemon, glyphs: layout.glyphs)
    }

    /// The session as pickerd last told it.
    var session: SessionState { model.session }

    /// The pane size pick asks of the session: its picture pane, within what the terminal draws.
    var paneSize: PaneSize {
        let pane = layout.picturePixels(of: layout.imagePane)
        return PaneSize(width: pane.width, height: pane.height)
    }

    /// Loads the lists, draws, and runs until accepted or cancelled.
    func run() throws(CLIError) -> PickOutcome {
        try loadAll()
        if model.session.photo != nil, !startsOnAlbums { model.focus = .photos }
        draw(full: true)
        while outcome == nil {
            let ready: [Bool]
            do {
                let timeout = daemon.hasArrivals ? 0 : pictures.pollTimeout()
                ready = try Terminal.waitReadable([terminal.descriptor, events.descriptor, signals.descriptor, daemon.descriptor],
                                                  timeoutMilliseconds: timeout)
            } catch {
                throw CLIError(message: "pick: \(error)", exitCode: .failure)
            }
            var full = false
            if ready[2] { full = try handleSignals() || full }
            if ready[1] { try handleEvents() }
            if ready[0] { full = try handleInput() || full }
            if outcome == nil { try handleReplies(readable: ready[3]) }
            if outcome == nil {
                draw(full: full)
                pictures.tick(on: terminal)
                // After the picture's ask: a header read, answered with the next replies.
                summaryAsk.follow(&model, daemon: daemon)
            }
        }
        return outcome ?? .cancelled
    }

    // MARK: inputs

    /// Keys and mouse through the model; terminal answers to the layout. Returns whether to redraw fully.
    private func handleInput() throws(CLIError) -> Bool {
        guard let bytes = terminal.read() else {
            outcome = .cancelled  // the terminal is gone (its window closed): nobody is left to pick
            return false
        }
        var full = false
        for input in parser.feed(bytes) where outcome == nil {
            if try takeSixelGeometry(input) { full = true; continue }
            // The help overlay covers the whole screen, and leaves nothing behind when it closes.
            let helpWasShown = model.helpShown
            defer { if model.helpShown != helpWasShown { full = true } }
            switch PhotoPaging.need(input, model) {
            case .lastPage: try PhotoPaging.loadLast(&model, from: daemon)
            case .wholeAlbum: try PhotoPaging.load(&model, count: Int.max, from: daemon)
            case nil: break
            }
            for action in model.handle(input, layout: layout) {
                try perform(action)
            }
            try PhotoPaging.topUp(&model, paneHeight: layout.photoPane.height, from: daemon)
        }
        return full
    }

    private func perform(_ action: PickAction) throws(CLIError) {
        switch action {
        case .openAlbum(let index):
            asks.overtaken()
            model.session = try daemon.state(.selectAlbum(session: daemon.session, .index(index)))
            model.photos.setFilter("")
            try PhotoPaging.reload(&model, from: daemon)
            if let first = model.photos.current {
                model.session = try daemon.state(.selectPhoto(session: daemon.session, .index(first.index)))
            }
        case .selectPhoto(let index):
            askForPhoto(index)
        case .togglePhoto(let index):
            do throws(CLIError) {
                _ = try daemon.call(.toggle(session: daemon.session, .index(index)))
            } catch where error.exitCode != .unreachable {
                model.notice = error.message  // e.g. a broken photo cannot be picked
            }
            try refreshSelection()
        case let .setChoice(id, value):
            do throws(CLIError) {
                model.choices = try daemon.setChoice(id: id, value: value)
            } catch where error.exitCode != .unreachable {
                model.notice = error.message
            }
        case .accept: outcome = .accepted(try acceptedPhotos(), maxSelection: model.session.maxSelection)
        case .cancel: outcome = .cancelled
        case .redraw: break
        case .redrawAll: break  // the picture key changed with the mode: draw() erases and redraws it
        }
    }

    /// Session events from other clients (and our own): re-read what changed.
    private func handleEvents() throws(CLIError) {
        var frames: [Frame] = []
        do throws(ClientError) {
            frames.append(try events.nextFrame())
            while let more = try events.bufferedFrame() { frames.append(more) }
        } catch {
            throw CLIError(message: "pickerd went away: \(error)", exitCode: .unreachable)
        }
        var libraryChanged = false
        var changedPhotos: [String] = []
        for frame in frames {
            guard frame.isEvent, let event = try? Event(frame: frame) else { continue }
            guard case let .session(change, state) = event else {
                if case .libraryChanges(let changes) = event {
                    // Only rewritten or newly broken photos: re-reading their rows is enough.
                    if changes.added.isEmpty && changes.removed.isEmpty { changedPhotos += changes.changed } else { libraryChanged = true }
                }
                continue
            }
            if change == .closed { throw CLIError(message: "session '\(daemon.session)' was closed", exitCode: .nothingSelected) }
            // Another client finished the session pick serves (`pickerctl accept`, an editor, the
            // portal's app): its answer is pick's too, and nobody is left to pick here.
            if change == .accepted { outcome = .accepted(try acceptedPhotos(), maxSelection: state.maxSelection); return }
            if change == .cancelled { outcome = .cancelled; return }
            if change == .photo, asks.isOldNews(state) { continue }
            let albumChanged = state.album != model.session.album
            takeSession(state)
            if albumChanged { try reloadPhotos() }
            if change == .selection { try refreshSelection() }
            if change == .choice { model.choices = try daemon.choices() }
        }
        // Another client may have made a photo current beyond the pages loaded so far.
        if let index = model.session.photoIndex { try PhotoPaging.load(&model, count: index, from: daemon) }
        if !libraryChanged, !changedPhotos.isEmpty {
            libraryChanged = try !PhotoPaging.refresh(&model, changed: changedPhotos, from: daemon)
            // The current photo rewritten on disk: its message (size, or the broken reason) is new,
            // and pickerd sends no session event for that.
            if let current = currentPhotoPath, changedPhotos.contains(current) {
                let message = model.session.message
                takeSession(try daemon.state(.sessionShow(name: daemon.session)))
                // Rewritten (a new size), or found broken by another: its picture again. Not when the
                // failure was this very picture's (same message): that would ask for it forever.
                if model.session.message != message { model.pictureRevision += 1 }
            }
        }
        if libraryChanged {
            // Photos added or removed on disk: the album counts and the open album's list.
            model.albums.replace(try daemon.albums(), keepingCursorOn: { [name = model.albums.current?.name] in $0.name == name })
            try reloadPhotos()
            try refreshSelection()
        }
        followCurrentPhoto()
    }

    /// SIGWINCH: new layout and session size; SIGTERM/SIGINT/SIGHUP: cancel. Returns whether to redraw fully.
    private func handleSignals() throws(CLIError) -> Bool {
        var resized = false
        for signal in signals.drain() {
            if signal == SIGWINCH { resized = true } else { outcome = .cancelled }
        }
        guard resized, outcome == nil else { return false }
        let size = terminal.size()
        layout = PickLayout(columns: size.columns, rows: size.rows,
                            cell: CellPixels.resolve(size: size, cellReply: layout.cell, windowReply: nil), pictureLimit: layout.pictureLimit,
                            glyphs: layout.glyphs)
        // xterm's sixel limit follows its window: ask again; the answer comes in with the keys.
        if layout.pictureLimit != nil {
            let outer = Passthrough(enabled: PickEnvironment.current()["TMUX"] != nil)  // as at the start
            terminal.write(outer.wrap(Array(GraphicsDetection.sixelGeometryQuery.utf8)))
        }
        try resizeSession()
        return true
    }

    /// The session's pane: the image pane's pixels, within what the terminal draws.
    private func resizeSession() throws(CLIError) {
        let pane = paneSize
        guard pane != PaneSize(width: model.session.width, height: model.session.height) else { return }
        takeSession(try daemon.state(.sessionResize(name: daemon.session, width: pane.width, height: pane.height)))
    }

    /// A new sixel limit from the terminal (after a resize): refit the pane. Returns whether it changed.
    private func takeSixelGeometry(_ input: TerminalInput) throws(CLIError) -> Bool {
        guard case let .sixelGeometry(width, height) = input, layout.pictureLimit != nil else { return false }
        let limit = PictureLimit(largest: PixelSize(width: width, height: height))
        guard limit != layout.pictureLimit else { return false }
        layout.pictureLimit = limit
        try resizeSession()
        return true
    }

    // MARK: the current photo, asked for without waiting

    /// Moves the session to album position `index` without waiting for pickerd: the list shows it at
    /// once and the picture is asked for right behind (pickerd runs a session's requests in order).
    private func askForPhoto(_ index: Int) {
        guard index != (asks.lastAsked ?? model.session.photoIndex) else { return }
        do throws(CLIError) {
            let ticket = try daemon.post(.selectPhoto(session: daemon.session, .index(index)))
            asks.asked(index, ticket: ticket)
            askTickets[ticket] = index
        } catch {
            model.notice = error.message
            return
        }
        // What pick knows of the photo until pickerd answers: its name; the message comes with the reply.
        model.session.photoIndex = index
        model.session.photo = model.photos.items.first { $0.index == index }?.name
        model.session.message = ""
    }

    /// Replies to posted requests: the photo asks' and the pictures'.
    private func handleReplies(readable: Bool) throws(CLIError) {
        for (ticket, reply) in try daemon.arrivals(readable: readable) {
            if summaryAsk.take(ticket, reply, into: &model) { continue }
            guard let index = askTickets.removeValue(forKey: ticket) else {
                if let window = pictures.arrived(ticket, reply, layout: layout, on: terminal) { zoomLanded(window) }
                continue
            }
            let failed: Int? = if case .error = reply { index } else { nil }
            guard asks.replied(ticket, failedFor: failed) else { continue }
            switch reply {
            case .session(let state):
                // The newest ask: the session as the user left it, unless its event came first (the
                // event connection is ahead, and may already have told what came after, such as
                // the photo found broken by its picture).
                if asks.isUnheard(index) { model.session = state }
            case .error(let e):
                model.notice = e.message
                takeSession(try daemon.state(.sessionShow(name: daemon.session)))
                followCurrentPhoto()
            default: throw unexpected(reply)
            }
        }
    }

    /// A zoomed picture arrived: the model pans from where its window lies. Its centre moves to the
    /// window's only when the photo clamped it, and then the picture shown is the one wanted already.
    private func zoomLanded(_ window: ZoomWindow) {
        guard model.mode == .preview, model.zoom != nil else { return }
        model.zoom?.landed(window)
        pictures.adoptZoom(model.zoom?.centre)
    }

    /// The session as pickerd tells it; while pick's own photo asks are on the way, the photo they asked
    /// for stays (the state told is older than them).
    private func takeSession(_ state: SessionState) {
        let current = model.session
        model.session = state
        guard asks.lastAsked != nil else { return }
        model.session.photo = current.photo
        model.session.photoIndex = current.photoIndex
        model.session.message = current.message
    }

    // MARK: daemon state

    private func loadAll() throws(CLIError) {
        model.albums.replace(try daemon.albums()) { [album = model.session.album] in $0.name == album }
        try reloadPhotos()
        try refreshSelection()
        model.choices = try daemon.choices()
    }

    private func reloadPhotos() throws(CLIError) {
        try PhotoPaging.reload(&model, from: daemon)
        if let album = model.session.album { model.albums.moveCursor { $0.name == album } }
        followCurrentPhoto()
    }

    /// The current photo's path relative to the library root, when its row is loaded.
    private var currentPhotoPath: String? {
        guard let index = model.session.photoIndex else { return nil }
        return model.photos.items.first { $0.index == index }?.path
    }

    private func followCurrentPhoto() {
        if let index = model.session.photoIndex { model.photos.moveCursor { $0.index == index } }
    }

    private func refreshSelection() throws(CLIError) {
        let list = try daemon.selection()
        model.picks = list.photos.map(\.path)
        model.session.maxSelection = list.maxSelection
    }

    /// The picks in order; with none, the current photo on its own.
    private func acceptedPhotos() throws(CLIError) -> [SelectedPhoto] {
        let list = try daemon.selection()
        if !list.photos.isEmpty && !model.single { return list.photos }
        guard let photo = model.photos.items.first(where: { $0.index == model.session.photoIndex }) else { return [] }
        let absolute = libraryRoot.hasSuffix("/") ? libraryRoot + photo.path : libraryRoot + "/" + photo.path
        return [SelectedPhoto(album: model.session.album ?? "", name: photo.name, width: photo.width, height: photo.height,
                              path: photo.path, absolutePath: absolute)]
    }

    // MARK: drawing

    /// Takes the picture away before the terminal is handed back (kitty images outlive the alternate screen).
    func clearPictures() { pictures.forget(terminal) }

    private func draw(full: Bool) {
        if full {
            renderer.invalidate()
            pictures.forget(terminal)
            terminal.write("\u{1b}[0m\u{1b}[2J")
        }
        model.albums.scroll(toShow: layout.albumPane.height)
        model.photos.scroll(toShow: layout.photoPane.height)
        terminal.write(PickRenderer.syncBegin)
        if !layout.isTooSmall { pictures.eraseIfChanging(model: model, layout: layout, on: terminal) }
        terminal.write(renderer.update(to: PickRenderer.rows(model, layout, graphics: backend.kind)))
        if !layout.isTooSmall { pictures.show(model: &model, layout: layout, on: terminal) }
        // The grid's page is known once it is drawn: its heading follows in the same frame.
        terminal.write(renderer.update(to: PickRenderer.rows(model, layout, graphics: backend.kind)))
        terminal.write(PickRenderer.syncEnd)
    }
}
