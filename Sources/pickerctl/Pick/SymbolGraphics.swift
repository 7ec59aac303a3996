import PickerProtocol

/// Coloured Unicode symbols rendered by the daemon (libchafa) for the pane's cells: works in every
/// terminal with 24-bit colour, tmux without passthrough included.
/// Every picture is drawn with one symbol class (`--symbols`).
struct SymbolGraphics: GraphicsBackend {
    var symbols: SymbolClass = .block
    var kind: GraphicsKind { .symbols }
    func gridRequest(session: String, cellSize: Int, page: Int, rect: CellRect) -> ThumbnailRequest? {
        TerminalImageRequests.symbolsGrid(session: session, cellSize: cellSize, page: page, columns: rect.width, rows: rect.height,
                                          symbols: symbols)
    }

    func imageRequest(session: String, rect: CellRect) -> Request? {
        TerminalImageRequests.symbols(session: session, columns: rect.width, rows: rect.height, symbols: symbols)
    }

    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? {
        TerminalImageRequests.symbolsPreview(session: session, columns: rect.width, rows: rect.height, pixels: pixels,
                                             symbols: symbols)
    }

    /// About 18 columns a cell: a 100 px cell would be a few symbols wide, too coarse to tell photos apart.
    func gridCellSize(pixels: (width: Int, height: Int), rect: CellRect) -> Int {
        let perColumn = max(1, pixels.width / max(1, rect.width))
        return min(max(16, 18 * perColumn), min(1024, max(16, pixels.width / 2)))
    }

    /// The reply's rows, each drawn at its own row of the pane (rows end in "\n").
    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] {
        var out: [UInt8] = []
        var row = 0
        for line in image.data.split(separator: 0x0a, omittingEmptySubsequences: false) where row < rect.height {
            out += Array(ScreenText.moveTo(column: rect.column, row: rect.row + row).utf8)
            out += line
            row += 1
        }
        return out + Array("\u{1b}[0m".utf8)
    }
}
