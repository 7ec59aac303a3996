import PickerProtocol

/// The encoding of a rendered picture.
public struct OutputSpec: Sendable, Equatable, Hashable {
    public var format: ImageFormat
    /// 1–100 for JPEG and WebP; ignored for PNG and the terminal formats.
    public var quality: Int
    /// The cell grid `symbols` is fitted into, with the symbol class drawn (never nil, so a
    /// request naming `block` and one naming no class share a cache entry, and a sextant picture
    /// is never served for a block request); nil for every other format (sixel is drawn at the
    /// picture's own pixel size), so the cache never splits on cells it does not use.
    public var cells: TerminalCells?

    public init(format: ImageFormat, quality: Int = 85, cells: TerminalCells? = nil) {
        self.format = format
        // Quality means nothing to the terminal formats: one value, so the cache never splits on it.
        self.quality = format.isTerminalText ? 100 : quality
        self.cells = format == .symbols ? cells.map { c in
            TerminalCells(columns: c.columns, rows: c.rows, symbols: c.drawnSymbols)
        } : nil
    }

    /// PNG, the default output of `get-image`.
    public static let png = OutputSpec(format: .png)
}
