import PickerProtocol
import PickerSystem

/// A rectangle of character cells (0-based).
struct CellRect: Equatable {
    var column: Int
    var row: Int
    var width: Int
    var height: Int
    func contains(column c: Int, row r: Int) -> Bool {
        c >= column && c < column + width && r >= row && r < row + height
    }
}

/// How big one character cell is in pixels: the terminal's own answer where it gives one, else 8x16.
struct CellPixels: Equatable {
    var width: Int
    var height: Int
    static let fallback = CellPixels(width: 8, height: 16)

    /// TIOCGWINSZ's pixel size first, then the `CSI 16 t` / `CSI 14 t` answers, then 8x16.
    static func resolve(size: TerminalSize, cellReply: CellPixels?, windowReply: (width: Int, height: Int)?) -> CellPixels {
        if size.pixelWidth > 0, size.pixelHeight > 0, size.columns > 0, size.rows > 0 {
            return CellPixels(width: size.pixelWidth / size.columns, height: size.pixelHeight / size.rows)
        }
        if let cell = cellReply, cell.width > 0, cell.height > 0 { return cell }
        if let window = windowReply, window.width > 0, window.height > 0, size.columns > 0, size.rows > 0 {
            return CellPixels(width: window.width / size.columns, height: window.height / size.rows)
        }
        return fallback
    }
}

/// Seed 002's screen: header (title left, message right), albums | photos | image, status and key help.
struct PickLayout: Equatable {
    var columns: Int
    var rows: Int
    var cell: CellPixels
    /// The largest picture the terminal draws, when it said (sixel); nil: no limit known.
    var pictureLimit: PictureLimit? = nil
    /// What pick's own frame and marks are drawn with (the locale's, chosen once at start).
    var glyphs: PickGlyphs = .unicode

    static let minimumColumns = 40
    static let minimumRows = 8
    static let paneSizes = ProtocolLimits.paneSizeRange

    var isTooSmall: Bool { columns < Self.minimumColumns || rows < Self.minimumRows }
    var headerRow: Int { 0 }
    var statusRow: Int { rows - 2 }
    var helpRow: Int { rows - 1 }
    /// Panes sit between the header (plus a heading row) and the two bottom rows.
    private var paneTop: Int { 2 }
    private var paneHeight: Int { max(1, rows - 4) }

    var albumPane: CellRect { CellRect(column: 0, row: paneTop, width: albumWidth, height: paneHeight) }
    var photoPane: CellRect { CellRect(column: albumWidth + 1, row: paneTop, width: photoWidth, height: paneHeight) }
    var imagePane: CellRect {
        let left = albumWidth + photoWidth + 2
        return CellRect(column: left, row: paneTop, width: max(1, columns - left), height: paneHeight)
    }
    /// The whole screen below the header: the full-screen preview's area.
    var previewArea: CellRect { CellRect(column: 0, row: 1, width: columns, height: max(1, rows - 2)) }

    private var albumWidth: Int { max(12, columns * 18 / 100) }
    private var photoWidth: Int { max(14, columns * 22 / 100) }

    /// A cell rectangle's size in pixels, clamped to what a session pane may be.
    func pixels(of rect: CellRect) -> (width: Int, height: Int) {
        (Self.clamp(rect.width * cell.width), Self.clamp(rect.height * cell.height))
    }

    /// The pixel size to ask pickerd for a picture in `rect`: `pixels(of:)` within the terminal's limit.
    func picturePixels(of rect: CellRect) -> (width: Int, height: Int) {
        let size = pixels(of: rect)
        guard let limit = pictureLimit else { return size }
        let fitted = limit.fit(size)
        return (Self.clamp(fitted.width), Self.clamp(fitted.height))
    }

    private static func clamp(_ v: Int) -> Int { min(max(v, paneSizes.lowerBound), paneSizes.upperBound) }
}
