import PickerProtocol

/// Where thumbnail cells go: as many columns as fit the pane width (at least one),
/// 10 px between cells, 16 px around them; with a pane height, rows that do not
/// fit go to later pages. No page is taller than `maxPageHeight`, so a huge album without a pane
/// height is paged too and every page image stays within the canvas limit. Pure arithmetic.
public struct GridLayout: Equatable, Sendable {
    public static let spacing = 10
    public static let padding = 16
    public static let defaultCellSize = 100
    public static let cellSizeRange = ProtocolLimits.cellSizeRange
    /// The tallest page image: the largest pane side.
    public static let maxPageHeight = ProtocolLimits.paneSizeRange.upperBound

    public let cellSize: Int
    public let columns: Int
    public let rowsPerPage: Int
    public let totalRows: Int
    public let pages: Int
    public let count: Int
    /// Width of every page image: the pane width, or wider if one cell needs more.
    public let width: Int

    public init(paneWidth: Int, paneHeight: Int?, cellSize: Int, count: Int) {
        let pitch = cellSize + GridLayout.spacing
        self.cellSize = cellSize
        self.count = max(0, count)
        columns = max(1, (paneWidth - 2 * GridLayout.padding + GridLayout.spacing) / pitch)
        totalRows = (self.count + columns - 1) / columns
        let rowsThatFit = { (h: Int) in max(1, (h - 2 * GridLayout.padding + GridLayout.spacing) / pitch) }
        let tallest = rowsThatFit(GridLayout.maxPageHeight)
        rowsPerPage = min(tallest, paneHeight.map(rowsThatFit) ?? max(1, totalRows))
        pages = max(1, (totalRows + rowsPerPage - 1) / rowsPerPage)
        width = max(paneWidth, 2 * GridLayout.padding + columns * cellSize + (columns - 1) * GridLayout.spacing)
    }

    /// Photo positions (0-based, in album order) shown on a 1-based page.
    public func slots(onPage page: Int) -> Range<Int> {
        let first = (page - 1) * rowsPerPage * columns
        let end = min(count, first + rowsPerPage * columns)
        return first < end ? first..<end : first..<first
    }

    /// Rows on a 1-based page.
    public func rows(onPage page: Int) -> Int {
        let n = slots(onPage: page).count
        return (n + columns - 1) / columns
    }

    /// Image height of a 1-based page (padding only, when the page is empty).
    public func height(ofPage page: Int) -> Int {
        let r = rows(onPage: page)
        return 2 * GridLayout.padding + (r > 0 ? r * cellSize + (r - 1) * GridLayout.spacing : 0)
    }

    /// Top-left corner of the cell for photo position `slot` on its page.
    public func origin(ofSlot slot: Int) -> (x: Int, y: Int) {
        let onPage = slot % (rowsPerPage * columns)
        let row = onPage / columns, column = onPage % columns
        let pitch = cellSize + GridLayout.spacing
        return (GridLayout.padding + column * pitch, GridLayout.padding + row * pitch)
    }
}
