import PickerProtocol
import PickerSystem

/// One row of text to show, starting at a column; the renderer rewrites a row only when it changed.
struct ScreenRow: Equatable {
    var column: Int
    var text: String
}

/// Turns the model into rows of text (the screen model) and writes only what changed since the last
/// frame, all inside synchronized output (DEC 2026) so the terminal never shows half a redraw.
/// The image pane is not part of the rows: the graphics back-end owns it.
struct PickRenderer {
    private var last: [Int: ScreenRow] = [:]

    /// The bottom row's key help.
    static func help(_ g: PickGlyphs, choices: Bool = false) -> String {
        "\(g.pair(g.up, g.down)) jk move  \(g.pair(g.left, g.right)) Tab pane  Enter open/accept  Space pick  / filter  g grid  p preview"
            + (choices ? "  1-9 choice" : "") + "  ? help  Esc q cancel"
    }
    static let syncBegin = "\u{1b}[?2026h"
    static let syncEnd = "\u{1b}[?2026l"

    /// Forget the last frame (after a resize or a full clear).
    mutating func invalidate() { last = [:] }

    /// The bytes that bring the screen from the last frame to this one (not wrapped in sync).
    mutating func update(to rows: [Int: ScreenRow]) -> String {
        var out = ""
        // Rows that are gone (entering the preview) are cleared before the picture is drawn over them.
        for row in last.keys.sorted() where rows[row] == nil {
            out += ScreenText.moveTo(column: 0, row: row) + "\u{1b}[0m\u{1b}[2K"
        }
        for (row, content) in rows.sorted(by: { $0.key < $1.key }) where last[row] != content {
            out += ScreenText.moveTo(column: content.column, row: row) + content.text + "\u{1b}[0m"
        }
        last = rows
        return out
    }

    /// The screen model for the panes view, in what the locale's terminal shows (`PickGlyphs.onScreen`).
    static func rows(_ model: PickerModel, _ layout: PickLayout, graphics: GraphicsKind) -> [Int: ScreenRow] {
        content(model, layout, graphics: graphics).mapValues { ScreenRow(column: $0.column, text: layout.glyphs.onScreen($0.text)) }
    }

    private static func content(_ model: PickerModel, _ layout: PickLayout, graphics: GraphicsKind) -> [Int: ScreenRow] {
        var rows: [Int: ScreenRow] = [:]
        let g = layout.glyphs
        if layout.isTooSmall {
            rows[0] = ScreenRow(column: 0, text: fit("terminal too small for pick (\(PickLayout.minimumColumns)x\(PickLayout.minimumRows))", layout.columns, g))
            return rows
        }
        rows[layout.headerRow] = ScreenRow(column: 0, text: header(model, layout.columns, g))
        if model.helpShown { return rows.merging(PickHelp.rows(layout)) { _, help in help } }
        if model.mode == .preview {
            rows[layout.helpRow] = ScreenRow(column: 0, text: previewStatus(model, layout.columns, g))
            return rows
        }
        rows[1] = ScreenRow(column: 0, text: headings(model, layout))
        let albums = layout.albumPane, photos = layout.photoPane
        for r in 0..<albums.height {
            let albumCell = albumRow(model, at: model.albums.top + r, width: albums.width, g)
            let photoCell = photoRow(model, at: model.photos.top + r, width: photos.width, g)
            rows[albums.row + r] = ScreenRow(column: 0, text: albumCell + "\u{1b}[0m" + g.bar + photoCell + "\u{1b}[0m" + g.bar)
        }
        rows[layout.statusRow] = ScreenRow(column: 0, text: status(model, layout.columns, graphics: graphics, g))
        rows[layout.helpRow] = ScreenRow(column: 0, text: "\u{1b}[2m" + fit(help(g, choices: !model.choices.isEmpty), layout.columns, g))
        return rows
    }

    /// The preview's key help.
    static func previewHelp(_ g: PickGlyphs, zoomed: Bool = false) -> String {
        zoomed ? "1:1  h j k l \(g.left)\(g.down)\(g.up)\(g.right) move  z fit  n next  p previous  Space pick  Esc back  ? help"
            : "n \(g.right) next  p \(g.left) previous  z 1:1  Space pick  Esc back  ? help"
    }

    /// The preview's bottom row: the current photo's pick badge, the count, and its keys.
    static func previewStatus(_ model: PickerModel, _ width: Int, _ g: PickGlyphs) -> String {
        let path = model.photos.items.first { $0.index == model.session.photoIndex }?.path
        let badge = path.flatMap(model.pickNumber(of:)).map { "\(g.picked)\($0) picked  " } ?? ""
        let position = model.session.photoIndex.map { "\($0)/\(model.photosTotal)  " } ?? ""
        let text = position + model.pickCountText + (model.notice.isEmpty ? "" : "  " + g.message(shown(model.notice))) + "   " + previewHelp(g, zoomed: model.zoom != nil)
        let rest = "\u{1b}[2m" + fit(text, max(1, width - TerminalColumns.width(of: badge)), g)
        return badge.isEmpty ? rest : "\u{1b}[1;32m" + badge + "\u{1b}[0m" + rest
    }

    /// Title top-left (bold), message top-right.
    static func header(_ model: PickerModel, _ width: Int, _ g: PickGlyphs) -> String {
        let title = shown(model.session.title)
        let message = model.headerMessage(fitting: max(0, width - TerminalColumns.width(of: title) - 2), g)
        let gap = width - TerminalColumns.width(of: title) - TerminalColumns.width(of: message)
        if gap < 1 { return "\u{1b}[1m" + fit(title, width, g) }
        return "\u{1b}[1m" + title + "\u{1b}[0m" + String(repeating: " ", count: gap) + message
    }

    private static func headings(_ model: PickerModel, _ layout: PickLayout) -> String {
        let albumTitle = model.focus == .albums && !model.albums.filter.isEmpty
            ? "Albums /\(shown(model.albums.filter))  \(model.albums.count)/\(model.albums.items.count)" : "Albums"
        let photoTitle = model.focus == .photos && !model.photos.filter.isEmpty
            ? "Photos /\(shown(model.photos.filter))  \(model.photos.count)/\(model.photos.items.count)" : "Photos (\(model.photosTotal))"
        let imageTitle = model.mode == .grid ? "Grid" + (model.gridPage.map { "  page \($0.page)/\($0.pages)" } ?? "")
            : model.filterMatchesNothing ? "" : shown(model.session.photo ?? "")
        let g = layout.glyphs
        return "\u{1b}[4m" + fit(albumTitle, layout.albumPane.width, g) + " " + fit(photoTitle, layout.photoPane.width, g) + " "
            + fit(imageTitle, layout.imagePane.width, g)
    }

    private static func albumRow(_ model: PickerModel, at row: Int, width: Int, _ g: PickGlyphs) -> String {
        guard let album = model.albums.item(atRow: row) else { return String(repeating: " ", count: width) }
        let open = album.name == model.session.album ? g.open : " "
        let text = open + highlighted(fit(shown(album.name) + " (\(album.photoCount))", width - 1, g), album.name,
                                      model.albums.matchedPositions(atRow: row))
        return style(row == model.albums.cursor, focused: model.focus == .albums) + text
    }

    private static func photoRow(_ model: PickerModel, at row: Int, width: Int, _ g: PickGlyphs) -> String {
        guard let photo = model.photos.item(atRow: row) else { return String(repeating: " ", count: width) }
        let cursor = photo.index == model.session.photoIndex
        let name = highlighted(fit(shown(photo.name), width - 4, g), photo.name, model.photos.matchedPositions(atRow: row))
        // A broken photo: a red ✗ (with its pick number, if picked before it was found broken) and a dim
        // name; the reason is in the message when it is current.
        if photo.broken != nil {
            return style(cursor, focused: model.focus == .photos) + "\u{1b}[31m" + fit(g.broken + (model.pickNumber(of: photo.path).map(String.init) ?? ""), 4, g) + "\u{1b}[39;2m" + name
        }
        let mark = model.pickNumber(of: photo.path).map { "\u{1b}[1;32m" + fit(g.picked + "\($0)", 4, g) + "\u{1b}[22;39m" } ?? "    "
        return style(cursor, focused: model.focus == .photos) + mark + name
    }

    /// The cursor row: reverse video in the focused pane, bold elsewhere.
    private static func style(_ isCursor: Bool, focused: Bool) -> String {
        guard isCursor else { return "\u{1b}[0m" }
        return focused ? "\u{1b}[0;7m" : "\u{1b}[0;1m"
    }

    private static func status(_ model: PickerModel, _ width: Int, graphics: GraphicsKind, _ g: PickGlyphs) -> String {
        var left = model.pickCountText
        if !model.choices.isEmpty { left += "   " + model.choicesText }
        if model.filterEditing { left += "   filter: /" + shown(model.currentFilter) + g.caret }
        // A notice can quote a file name (a refusal for a broken photo): escaped like every name.
        if !model.notice.isEmpty { left += "   " + g.message(shown(model.notice)) }
        let right = "[\(graphics.rawValue)]"
        let gap = width - TerminalColumns.width(of: left) - TerminalColumns.width(of: right)
        return gap >= 1 ? left + String(repeating: " ", count: gap) + right : fit(left, width, g)
    }

    /// Control characters shown escaped: names and titles never reach the terminal raw.
    static func shown(_ text: String) -> String { InertText.escaped(text) }

    /// `fitted` (a name cut or padded to its cell) with the characters the filter matched in `name`
    /// underlined in green, as fzf shows them. A name that had to be escaped is shown plain: its
    /// characters no longer sit where they were matched.
    static func highlighted(_ fitted: String, _ name: String, _ positions: [Int]) -> String {
        guard !positions.isEmpty, shown(name) == name else { return fitted }
        let marked = Set(positions)
        var out = ""
        var inside = false
        for (i, scalar) in fitted.unicodeScalars.enumerated() {
            let on = marked.contains(i) && i < name.unicodeScalars.count
            if on != inside { out += on ? "\u{1b}[4;32m" : "\u{1b}[24;39m" }
            inside = on
            out.unicodeScalars.append(scalar)
        }
        return inside ? out + "\u{1b}[24;39m" : out
    }

    /// Cut (ending in `g.more`) or pad to exactly `width` terminal columns (a wide character takes two).
    static func fit(_ text: String, _ width: Int, _ g: PickGlyphs) -> String {
        guard width > 0 else { return "" }
        let used = TerminalColumns.width(of: text)
        if used > width {
            let more = TerminalColumns.width(of: g.more) <= width ? g.more : ""
            let room = width - TerminalColumns.width(of: more)
            let cut = TerminalColumns.prefix(text, columns: room)
            return cut + more + String(repeating: " ", count: room - TerminalColumns.width(of: cut))
        }
        return text + String(repeating: " ", count: width - used)
    }
}
