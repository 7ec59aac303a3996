import PickerProtocol
import PickerSystem

/// What the right-hand side shows; a new key means the old picture is erased and a new one drawn.
enum PictureKey: Equatable {
    /// The current photo by name and album position; `revision` moves when its file was rewritten.
    case photo(String, index: Int?, revision: Int, CellRect)
    case grid(album: String, picks: [String], current: Int?, CellRect)
    case preview(String, zoom: PreviewZoom?, CellRect)
    case empty(CellRect)
    /// The filter matches nothing: no photo's picture, and a line saying so.
    case noMatch(CellRect)
    /// The `?` overlay: text only, drawn by the renderer.
    case help(CellRect)

    var rect: CellRect {
        switch self {
        case .photo(_, _, _, let r), .grid(_, _, _, let r), .preview(_, _, let r), .empty(let r), .noMatch(let r), .help(let r): return r
        }
    }
}

/// The image pane: fetches the daemon's picture for what the model shows and draws it with the back-end,
/// erasing the previous one first, so no stale picture stays on screen.
///
/// The photo and the preview are asked for without waiting (issue 24 item 9): keys are read while the
/// picture is on its way, and it is drawn when it arrives (`arrived`) if it is still the one wanted.
/// A newer picture cancels the older one in flight; and while the picture keeps changing quicker than
/// `settle` (a held `j`), it is asked for once the keys pause, so a burst of keys decodes the first
/// photo and the one the user stops on, not every photo passed on the way.
final class PickPictures {
    private let backend: GraphicsBackend
    private let daemon: PickDaemon
    /// What a note in the pane is cut with (the layout's).
    private let glyphs: PickGlyphs
    /// What is on screen, or on its way (`fetch`, `due`).
    private var shown: PictureKey? = nil
    /// The picture request in flight, and what it is for.
    private var fetch: (ticket: Int, key: PictureKey, request: Request)? = nil
    /// A picture request waiting for the keys to pause, and when it is due (monotonic seconds).
    private var due: (key: PictureKey, request: Request, at: Double)? = nil
    /// When the wanted picture last changed.
    private var lastChange = -Double.infinity
    /// Pictures changing quicker than this are keys held or typed in a burst.
    static let settle = 0.06

    init(backend: GraphicsBackend, daemon: PickDaemon, glyphs: PickGlyphs) {
        self.glyphs = glyphs
        self.backend = backend
        self.daemon = daemon
    }

    /// The zoomed preview on screen is the one around `centre` (the daemon moved the window inside the
    /// photo): it stays, and is not asked for again.
    func adoptZoom(_ centre: PreviewZoom?) {
        guard case .preview(let photo, _?, let rect)? = shown, let centre else { return }
        shown = .preview(photo, zoom: centre, rect)
    }

    /// Erases the picture on screen (mode change, resize, exit).
    func forget(_ terminal: TerminalSession) {
        if let old = shown { terminal.write(backend.erase(old.rect)) }
        shown = nil
        due = nil
        if let old = fetch { daemon.cancel(old.ticket) }
        fetch = nil
    }

    /// Erases the picture on screen when a different one is wanted: called before the text is redrawn,
    /// so erasing never wipes text drawn in the same frame.
    func eraseIfChanging(model: PickerModel, layout: PickLayout, on terminal: TerminalSession) {
        if wanted(model, layout) != shown { forget(terminal) }
    }

    func show(model: inout PickerModel, layout: PickLayout, on terminal: TerminalSession) {
        let key = wanted(model, layout)
        guard key != shown else { return }
        forget(terminal)
        shown = key
        switch key {
        case .empty(let rect): terminal.write(ScreenText.blank(rect))
        case .noMatch(let rect): terminal.write(ScreenText.blank(rect) + note("no match", in: rect))
        case .help: break
        case .photo(_, _, _, let rect):
            ask(backend.imageRequest(session: daemon.session, rect: rect), for: key, on: terminal)
        case .preview(_, let zoom, let rect):
            terminal.write(ScreenText.blank(rect))
            var request = backend.previewRequest(session: daemon.session, rect: rect, pixels: layout.picturePixels(of: rect))
            if case .preview(var params)? = request, let zoom {
                params.zoom = zoom
                request = .preview(params)
            }
            ask(request, for: key, on: terminal)
        case .grid(_, _, _, let rect):
            drawGrid(model: &model, layout: layout, rect: rect, on: terminal)
        }
    }

    private func wanted(_ model: PickerModel, _ layout: PickLayout) -> PictureKey {
        if model.helpShown { return .help(layout.previewArea) }
        switch model.mode {
        case .preview:
            guard let photo = model.session.photo else { return .empty(layout.previewArea) }
            return .preview(photo, zoom: model.zoom?.centre, layout.previewArea)
        case .grid:
            guard let album = model.session.album else { return .empty(layout.imagePane) }
            return .grid(album: album, picks: model.picks, current: model.session.photoIndex, layout.imagePane)
        case .panes:
            if model.filterMatchesNothing { return .noMatch(layout.imagePane) }
            guard let photo = model.session.photo else { return .empty(layout.imagePane) }
            return .photo(photo, index: model.session.photoIndex, revision: model.pictureRevision, layout.imagePane)
        }
    }

    /// Asks for `key`'s picture: at once, or, while pictures change in quick succession, once keys pause.
    private func ask(_ request: Request?, for key: PictureKey, on terminal: TerminalSession) {
        guard let request else {
            terminal.write(note("(no pictures: --graphics \(backend.kind.rawValue))", in: key.rect))
            return
        }
        let now = monotonicNow()
        defer { lastChange = now }
        if now - lastChange < Self.settle {
            due = (key, request, now + Self.settle)
        } else {
            post(request, for: key, on: terminal)
        }
    }

    private func post(_ request: Request, for key: PictureKey, on terminal: TerminalSession) {
        do throws(CLIError) {
            fetch = (try daemon.post(request), key, request)
        } catch {
            terminal.write(note(error.message, in: key.rect))
        }
    }

    /// How long poll may wait before a picture is due (-1: none waiting).
    func pollTimeout() -> Int32 {
        guard let due else { return -1 }
        return Int32(max(0, min(1000, ((due.at - monotonicNow()) * 1000).rounded(.up))))
    }

    /// Asks for the picture waiting for a pause, once the keys have paused for `settle`.
    func tick(on terminal: TerminalSession) {
        guard let waiting = due else { return }
        let now = monotonicNow()
        if now - lastChange < Self.settle {
            due?.at = lastChange + Self.settle
            return
        }
        due = nil
        post(waiting.request, for: waiting.key, on: terminal)
    }

    /// A reply to a posted picture request: drawn when it is the picture wanted, else dropped. Returns
    /// where a zoomed preview's window landed, for the model's next pan.
    @discardableResult
    func arrived(_ ticket: Int, _ reply: Reply, layout: PickLayout, on terminal: TerminalSession) -> ZoomWindow? {
        guard let pending = fetch, pending.ticket == ticket else { return nil }
        fetch = nil
        guard pending.key == shown else { return nil }
        let rect = pending.key.rect
        terminal.write(PickRenderer.syncBegin)
        defer { terminal.write(PickRenderer.syncEnd) }
        switch reply {
        case .image(let image):
            terminal.write(drawOrRefuse(image, in: rect, layout: layout, centred: true))
            return image.zoom
        case .error(let e) where e.code == .cancelled:
            // Superseded by another image request on the session (another client's): ask again.
            post(pending.request, for: pending.key, on: terminal)
        case .error(let e):
            terminal.write(note(e.message, in: rect))
        default:
            terminal.write(note(unexpected(reply).message, in: rect))
        }
        return nil
    }

    /// The daemon's grid page holding the current photo, in the back-end's format (PNG, sixel or
    /// symbols: the daemon draws overlays and pick badges in every one); text without graphics.
    private func drawGrid(model: inout PickerModel, layout: PickLayout, rect: CellRect, on terminal: TerminalSession) {
        let cellSize = backend.gridCellSize(pixels: layout.picturePixels(of: rect), rect: rect)
        do throws(CLIError) {
            let page = try gridPage(showing: model.session.photoIndex, cellSize: cellSize)
            guard let request = backend.gridRequest(session: daemon.session, cellSize: cellSize, page: page, rect: rect) else {
                terminal.write(TextGrid.draw(model: &model, in: rect, glyphs: layout.glyphs))
                return
            }
            let reply = try daemon.call(.thumbnails(request))
            guard case .thumbnails(let sheet) = reply, let image = sheet.image else { throw unexpected(reply) }
            model.gridColumns = max(1, sheet.geometry.columns)
            model.gridPage = (page, max(1, sheet.geometry.pages))
            model.gridHit = image.format == .symbols
                ? GridHit.symbolGrid(sheet.geometry, image: image, rect: rect)
                : GridHit.pixelGrid(sheet.geometry, rect: rect, cell: layout.cell)
            terminal.write(drawOrRefuse(image, in: rect, layout: layout))
        } catch {
            terminal.write(note(error.message, in: rect))
        }
    }

    /// The 1-based grid page that holds album position `index` (page 1 without one): page 1's
    /// geometry says how many photos a full page holds.
    private func gridPage(showing index: Int?, cellSize: Int) throws(CLIError) -> Int {
        guard let index, index > 1 else { return 1 }
        let reply = try daemon.call(.thumbnails(ThumbnailRequest(session: daemon.session, cellSize: cellSize, geometryOnly: true)))
        guard case .thumbnails(let sheet) = reply else { throw unexpected(reply) }
        let g = sheet.geometry
        let perPage = max(1, g.columns * max(1, g.rows))
        return g.pages <= 1 ? 1 : min(g.pages, (index - 1) / perPage + 1)
    }

    /// The picture, or a line saying why the terminal would not draw it (a blank pane says nothing).
    /// `centred`: the photo and the preview sit in the middle of `rect`; the grid keeps its top-left
    /// corner there (its click map counts from it).
    private func drawOrRefuse(_ image: EncodedImage, in rect: CellRect, layout: PickLayout, centred: Bool = false) -> [UInt8] {
        if let refusal = layout.pictureLimit?.refusal(image) { return note(refusal, in: rect) }
        return backend.draw(image, in: centred ? PicturePlacement.centred(image, in: rect, cell: layout.cell) : rect)
    }

    private func note(_ text: String, in rect: CellRect) -> [UInt8] {
        Array((ScreenText.moveTo(column: rect.column, row: rect.row) + glyphs.onScreen(PickRenderer.fit(glyphs.message(PickRenderer.shown(text)), rect.width, glyphs))).utf8)
    }
}
