import PickerProtocol

/// Requests for the daemon's terminal formats: sixel (6) and symbols (7), the cells after flags bit 1
/// and the symbol class in the extension area.
enum TerminalImageRequests {
    static func sixel(session: String) -> Request? {
        .getImage(ImageRequest(session: session, format: .sixel))
    }

    static func sixelPreview(session: String, pixels: (width: Int, height: Int)) -> Request? {
        .preview(PreviewRequest(session: session, width: pixels.width, height: pixels.height, format: .sixel))
    }

    static func symbols(session: String, columns: Int, rows: Int, symbols: SymbolClass = .block) -> Request? {
        .getImage(ImageRequest(session: session, format: .symbols, cells: cells(columns, rows, symbols)))
    }

    static func symbolsPreview(session: String, columns: Int, rows: Int, pixels: (width: Int, height: Int),
                               symbols: SymbolClass = .block) -> Request? {
        .preview(PreviewRequest(session: session, width: pixels.width, height: pixels.height, format: .symbols,
                                cells: cells(columns, rows, symbols)))
    }

    static func symbolsGrid(session: String, cellSize: Int, page: Int, columns: Int, rows: Int,
                            symbols: SymbolClass = .block) -> ThumbnailRequest {
        ThumbnailRequest(session: session, cellSize: cellSize, page: page, format: .symbols, cells: cells(columns, rows, symbols))
    }

    /// Whether the daemon said (in its handshake) that it writes the back-end's format.
    static func supported(_ kind: GraphicsKind, by capabilities: Capabilities) -> Bool {
        switch kind {
        case .sixel: return capabilities.outputFormats.contains(.sixel)
        case .symbols: return capabilities.outputFormats.contains(.symbols)
        case .kitty, .iterm, .none: return true
        }
    }

    private static func cells(_ columns: Int, _ rows: Int, _ symbols: SymbolClass) -> TerminalCells {
        TerminalCells(columns: min(max(columns, 1), TerminalCells.range.upperBound),
                      rows: min(max(rows, 1), TerminalCells.range.upperBound), symbols: SymbolOptions.asked(symbols))
    }
}
