import PickerProtocol

/// What the right-hand side shows; a new key means the old picture is erased and a new one drawn.
enum PictureKey: Equatable {
    case photo(String, message: String, CellRect)
    case grid(album: String, picks: [String], current: Int?, CellRect)
    case preview(String, CellRect)
    case empty(CellRect)
    /// The `?` overlay: text only, drawn by the renderer.
    case help(CellRect)

    var rect: CellRect {
        switch self {
        case .photo(_, _, let r), .grid(_, _, _, let r), .preview(_, let r), .empty(let r), .help(let r): return r
        }
    }
}

/// The image pane: fetches the daemon's picture for what the model shows and draws it with the back-end,
/// erasing the previous one first, so no stale picture stays on screen.
final class PickPictures {
    private let backend: GraphicsBackend
    private let daemon: PickDaemon
    private var shown: PictureKey? = nil

    init(backend: GraphicsBackend, daemon: PickDaemon) {
        self.backend = backend
        self.daemon = daemon
    }

    /// Erases the picture on screen (mode change, resize, exit).
    func forget(_ terminal: TerminalSession) {
        if let old = shown { terminal.write(backend.erase(old.rect)) }
        shown = nil
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
        case .help: break
        case .photo(_, _, let rect):
            draw(backend.imageRequest(session: daemon.session, rect: rect), in: rect, layout: layout, on: terminal)
        case .preview(_, let rect):
            terminal.write(ScreenText.blank(rect))
            draw(backend.previewRequest(session: daemon.session, rect: rect, pixels: layout.picturePixels(of: rect)), in: rect,
                 layout: layout, on: terminal)
        case .grid(_, _, _, let rect):
            drawGrid(model: &model, layout: layout, rect: rect, on: terminal)
        }
    }

    private func wanted(_ model: PickerModel, _ layout: PickLayout) -> PictureKey {
        if model.helpShown { return .help(layout.previewArea) }
        switch model.mode {
        case .preview:
            guard let photo = model.session.photo else { return .empty(layout.previewArea) }
            return .preview(photo, layout.previewArea)
        case .grid:
            guard let album = model.session.album else { return .empty(layout.imagePane) }
            return .grid(album: album, picks: model.picks, current: model.session.photoIndex, layout.imagePane)
        case .panes:
            guard let photo = model.session.photo else { return .empty(layout.imagePane) }
            return .photo(photo, message: model.session.message, layout.imagePane)
        }
    }

    private func draw(_ request: Request?, in rect: CellRect, layout: PickLayout, on terminal: TerminalSession) {
        guard let request else {
            terminal.write(note("(no pictures: --graphics \(backend.kind.rawValue))", in: rect))
            return
        }
        do throws(CLIError) {
            let reply = try daemon.call(request)
            guard case .image(let image) = reply else { throw unexpected(reply) }
            terminal.write(drawOrRefuse(image, in: rect, layout: layout, centred: true))
        } catch {
            terminal.write(note(error.message, in: rect))
        }
    }

    /// The daemon's grid page holding the current photo, in the back-end's format (PNG, sixel or
    /// symbols: the daemon draws overlays and pick badges in every one); text without graphics.
    private func drawGrid(model: inout PickerModel, layout: PickLayout, rect: CellRect, on terminal: TerminalSession) {
        let cellSize = backend.gridCellSize(pixels: layout.picturePixels(of: rect), rect: rect)
        do throws(CLIError) {
            let page = try gridPage(showing: model.session.photoIndex, cellSize: cellSize)
            guard let request = backend.gridRequest(session: daemon.session, cellSize: cellSize, page: page, rect: rect) else {
                terminal.write(TextGrid.draw(model: &model, in: rect))
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
        Array((ScreenText.moveTo(column: rect.column, row: rect.row) + PickRenderer.fit(PickRenderer.shown(text), rect.width)).utf8)
    }
}
