import PickerProtocol

/// What the controller must do with the daemon after a key: the model itself never does I/O.
enum PickAction: Equatable {
    case openAlbum(index: Int)
    case selectPhoto(index: Int)
    case togglePhoto(index: Int)
    /// Set one of the session's choices (keys 1-9).
    case setChoice(id: String, value: String)
    case accept
    case cancel
    /// Redraw the lists only.
    case redraw
    /// The right side changed (grid on/off, preview on/off): redraw everything, images included.
    case redrawAll
}

/// The picker's state: lists, focus, filter, mode and the session as the daemon last told it.
/// A state machine: `handle` takes an input and returns actions (fzf's and yazi's shape).
struct PickerModel {
    enum Focus: Equatable { case albums, photos }
    enum Mode: Equatable { case panes, grid, preview }

    var albums = PickList<AlbumInfo>(label: \.name)
    var photos = PickList<PhotoInfo>(label: \.name)
    /// Photos in the open album; `photos` holds the pages loaded so far (PhotoPaging).
    var photosTotal = 0
    /// Positions in `photos` holding stand-ins, not loaded yet (End jumped over them; PhotoPaging).
    var photoGaps: [Range<Int>] = []
    var photosComplete: Bool { photos.items.count >= photosTotal && photoGaps.isEmpty }
    var focus = Focus.albums
    var mode = Mode.panes
    /// Where the preview returns to (the panes or the grid it was opened from).
    var previewReturn = Mode.panes
    /// The preview at 1:1 (`z`) and where it looks; nil: fitted.
    var zoom: PreviewZoomState? = nil
    /// The `?` overlay is up; any key closes it.
    var helpShown = false
    /// The grid page drawn and the album's pages (set by whoever drew the grid), for the heading.
    var gridPage: (page: Int, pages: Int)? = nil
    /// `i`: the header's right side shows the current photo's details instead of the message.
    var infoShown = false
    /// The details last told (for one photo: shown only while it is current).
    var summary: PhotoSummary? = nil
    /// Typing into the filter of the focused list.
    var filterEditing = false
    var session: SessionState
    /// Moves when the current photo's file was rewritten: its picture is fetched again.
    var pictureRevision = 0
    /// Picked photos' paths (relative to the library root), in pick order.
    var picks: [String] = []
    /// The host app's toggles (the portal's `choices`), shown in the status row; keys 1-9 change them.
    var choices: [SessionChoice] = []
    /// A one-line note for the status row (refusals, errors); cleared by the next key.
    var notice = ""
    /// Columns of the thumbnail grid (from the daemon's geometry), for ↑/↓ in the grid.
    var gridColumns = 1
    /// Which photo index the grid shows at a screen cell (set by whoever drew the grid), for clicks.
    var gridHit: ((Int, Int) -> Int?)? = nil
    let single: Bool

    init(session: SessionState, single: Bool) {
        self.session = session
        self.single = single
    }

    var pickCountText: String { "\(picks.count) of \(session.maxSelection) picked" }

    func pickNumber(of path: String) -> Int? { picks.firstIndex(of: path).map { $0 + 1 } }

    mutating func handle(_ input: TerminalInput, layout: PickLayout) -> [PickAction] {
        notice = ""
        if helpShown {
            helpShown = false
            return [.redrawAll]
        }
        if mode == .preview { return handlePreviewKey(input) }
        if filterEditing { return handleFilterKey(input) }
        switch input {
        case .interrupt, .escape, .character("q"): return [.cancel]
        case .up, .character("k"): return move(by: mode == .grid && focus == .photos ? -gridColumns : -1)
        case .down, .character("j"): return move(by: mode == .grid && focus == .photos ? gridColumns : 1)
        case .pageUp: return move(by: -max(1, layout.albumPane.height - 1))
        case .pageDown: return move(by: max(1, layout.albumPane.height - 1))
        case .home: return move(by: -Int(Int32.max))
        case .end, .character("G"): return move(by: Int(Int32.max))
        case .left, .character("h"):
            if mode == .grid && focus == .photos { return move(by: -1) }
            return switchFocus(to: .albums)
        case .right, .character("l"):
            if mode == .grid && focus == .photos { return move(by: 1) }
            return switchFocus(to: .photos)
        case .tab, .backTab: return switchFocus(to: focus == .albums ? .photos : .albums)
        case .enter: return enter()
        case .character(" "): return togglePick()
        case .character("/"):
            filterEditing = true
            return [.redraw]
        case .character("g"):
            mode = mode == .grid ? .panes : .grid
            return [.redrawAll]
        case .character("p"): return openPreview()
        case .character("i"): return toggleInfo()
        case .character("?"):
            helpShown = true
            return [.redrawAll]
        case .character(let c) where ("1"..."9").contains(c): return changeChoice(key: c)
        case let .click(column, row): return click(column: column, row: row, layout: layout)
        case let .wheel(up, column, row): return wheel(up: up, column: column, row: row, layout: layout)
        default: return []
        }
    }

    private mutating func handleFilterKey(_ input: TerminalInput) -> [PickAction] {
        switch input {
        case .character(let c):
            setFilter(currentFilter + String(c))
        case .backspace:
            setFilter(String(currentFilter.dropLast()))
        case .enter:
            filterEditing = false
        case .interrupt:
            return [.cancel]
        case .escape:
            filterEditing = false
            setFilter("")
        default:
            return []
        }
        return afterFilter()
    }

    /// The photo filter leaves no photo: the picture pane says "no match" instead of a photo.
    var filterMatchesNothing: Bool { focus == .photos && !photos.filter.isEmpty && photos.count == 0 }

    var currentFilter: String { focus == .albums ? albums.filter : photos.filter }

    private mutating func setFilter(_ text: String) {
        if focus == .albums { albums.setFilter(text) } else { photos.setFilter(text) }
    }

    /// The photo under the cursor after filtering becomes current, as when moving.
    private func afterFilter() -> [PickAction] {
        if focus == .photos, let p = photos.current, p.index != session.photoIndex { return [.selectPhoto(index: p.index)] }
        return [.redraw]
    }

    private mutating func move(by delta: Int) -> [PickAction] {
        if focus == .albums {
            return albums.move(by: delta) ? [.redraw] : []
        }
        guard photos.move(by: delta), let p = photos.current else { return [] }
        if zoom != nil { zoom = PreviewZoomState() }  // the next photo at 1:1 from its centre
        return [.selectPhoto(index: p.index)]
    }

    private mutating func switchFocus(to target: Focus) -> [PickAction] {
        guard focus != target else { return [] }
        if target == .photos && photos.count == 0 { return enter() }
        focus = target
        if target == .photos, session.photo == nil, let p = photos.current { return [.selectPhoto(index: p.index)] }
        return [.redraw]
    }

    /// The preview steps through the album (n/p, arrows, j/k), picks (Space), and returns to where it
    /// was opened from (Esc, q, Enter, Backspace), with the photo stepped to current (issue 24 item 4).
    private mutating func handlePreviewKey(_ input: TerminalInput) -> [PickAction] {
        if zoom != nil, let (dx, dy) = Self.pan(input) {
            return zoom?.pan(dx: dx, dy: dy) == true ? [.redraw] : []
        }
        switch input {
        case .interrupt: return [.cancel]
        case .character("z"):
            zoom = zoom == nil ? PreviewZoomState() : nil
            return [.redraw]
        case .character("n"), .right, .down, .character("j"), .character("l"), .pageDown: return stepPreview(by: 1)
        case .character("p"), .left, .up, .character("k"), .character("h"), .pageUp: return stepPreview(by: -1)
        case .home: return stepPreview(by: -Int(Int32.max))
        case .end, .character("G"): return stepPreview(by: Int(Int32.max))
        case .character(" "): return togglePick()
        case .character("i"): return toggleInfo()
        case .character("?"):
            helpShown = true
            return [.redrawAll]
        case .escape, .character("q"), .enter, .backspace:
            mode = previewReturn
            zoom = nil
            return [.redrawAll]
        default: return []
        }
    }

    /// At 1:1, h j k l and the arrows move the view by half a window; n p (and the pages) still step.
    private static func pan(_ input: TerminalInput) -> (dx: Int, dy: Int)? {
        switch input {
        case .left, .character("h"): return (-1, 0)
        case .right, .character("l"): return (1, 0)
        case .up, .character("k"): return (0, -1)
        case .down, .character("j"): return (0, 1)
        default: return nil
        }
    }

    /// The next or previous photo of the list (its filter kept), full-screen in its turn.
    private mutating func stepPreview(by delta: Int) -> [PickAction] {
        focus = .photos
        if let index = session.photoIndex, photos.current?.index != index { photos.moveCursor { $0.index == index } }
        guard photos.move(by: delta), let p = photos.current else { return [] }
        return [.selectPhoto(index: p.index)]
    }

    private mutating func toggleInfo() -> [PickAction] {
        infoShown.toggle()
        return [.redraw]
    }

    /// The header's right side: the current photo's details while `i` is on and they are known, else
    /// the session's message.
    func headerMessage(fitting width: Int, _ g: PickGlyphs) -> String {
        guard infoShown, let summary, summary.index == session.photoIndex, summary.revision == pictureRevision else { return PickRenderer.shown(session.message) }
        return summary.text(fitting: width, g)
    }

    /// Full screen, from the panes or the grid; Esc comes back to the mode it was opened from.
    private mutating func openPreview() -> [PickAction] {
        guard session.photo != nil else { notice = "no photo to preview"; return [.redraw] }
        previewReturn = mode
        mode = .preview
        return [.redrawAll]
    }

    private mutating func enter() -> [PickAction] {
        // In the grid Enter looks closer, it does not end the pick (a stray Enter accepted by accident).
        if mode == .grid && focus == .photos { return openPreview() }
        switch focus {
        case .albums:
            guard let album = albums.current else { return [] }
            focus = .photos
            return [.openAlbum(index: album.index)]
        case .photos:
            guard session.photo != nil || !picks.isEmpty else { notice = "nothing to accept: no photo"; return [.redraw] }
            return [.accept]
        }
    }

    private mutating func togglePick() -> [PickAction] {
        guard focus == .photos, let p = photos.current else { notice = "open an album, then Space picks a photo"; return [.redraw] }
        if single { return [.selectPhoto(index: p.index), .accept] }
        if pickNumber(of: p.path) == nil && picks.count >= session.maxSelection {
            notice = "pick list full (\(session.maxSelection)); Space on a picked photo removes it"
            return [.redraw]
        }
        return [.togglePhoto(index: p.index)]
    }

    private mutating func click(column: Int, row: Int, layout: PickLayout) -> [PickAction] {
        if layout.albumPane.contains(column: column, row: row) {
            focus = .albums
            guard albums.moveCursor(toRow: row - layout.albumPane.row), let a = albums.current else { return [.redraw] }
            focus = .photos
            return [.openAlbum(index: a.index)]
        }
        if mode == .grid, layout.imagePane.contains(column: column, row: row), let index = gridHit?(column, row) {
            focus = .photos
            guard photos.moveCursor(to: { $0.index == index }) else { return [] }
            return [.selectPhoto(index: index)]
        }
        if layout.photoPane.contains(column: column, row: row) {
            focus = .photos
            guard photos.moveCursor(toRow: row - layout.photoPane.row), let p = photos.current else { return [.redraw] }
            return [.selectPhoto(index: p.index)]
        }
        return []
    }

    private mutating func wheel(up: Bool, column: Int, row: Int, layout: PickLayout) -> [PickAction] {
        let delta = up ? -3 : 3
        if layout.albumPane.contains(column: column, row: row) {
            return albums.move(by: delta) ? [.redraw] : []
        }
        guard photos.move(by: delta), let p = photos.current else { return [] }
        return [.selectPhoto(index: p.index)]
    }
}

extension PickList {
    /// Puts the cursor on the item shown at `row` of the pane (0 = its first row); false when the row is empty.
    mutating func moveCursor(toRow row: Int) -> Bool {
        let target = top + row
        guard target >= 0, target < count else { return false }
        move(by: target - cursor)
        return true
    }
}
