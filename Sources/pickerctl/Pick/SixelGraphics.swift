import PickerProtocol

/// Sixel: the daemon renders the DCS sequence (libchafa) already fitted to the pane.
struct SixelGraphics: GraphicsBackend {
    var passthrough: Passthrough
    var kind: GraphicsKind { .sixel }
    func gridRequest(session: String, cellSize: Int, page: Int, rect: CellRect) -> ThumbnailRequest? {
        ThumbnailRequest(session: session, cellSize: cellSize, page: page, format: .sixel)
    }

    func imageRequest(session: String, rect: CellRect) -> Request? { TerminalImageRequests.sixel(session: session) }

    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? {
        TerminalImageRequests.sixelPreview(session: session, pixels: pixels)
    }

    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] {
        Array(ScreenText.moveTo(column: rect.column, row: rect.row).utf8) + passthrough.wrap(image.data, at: (rect.column, rect.row))
    }
}
