import PickerProtocol

/// The ways a picture can reach the terminal. `--graphics` names them.
enum GraphicsKind: String, CaseIterable {
    case kitty, iterm, sixel, symbols, none
}

/// Draws the daemon's pictures into a pane of the terminal. Each back-end says which request gets it a
/// picture for a pane (`imageRequest`, `previewRequest`, `gridRequest`), how to draw the reply (`draw`),
/// and how to take a picture away again (`erase`), so no image is ever left behind when the photo, the
/// mode or the size changes.
protocol GraphicsBackend {
    var kind: GraphicsKind { get }
    /// The grid's cell side in px for a pane `pixels` in size covering `rect`.
    func gridCellSize(pixels: (width: Int, height: Int), rect: CellRect) -> Int
    /// The thumbnail grid page drawn for `rect` in this back-end's format; nil shows the grid as text.
    func gridRequest(session: String, cellSize: Int, page: Int, rect: CellRect) -> ThumbnailRequest?
    /// The request for the session's current photo drawn in `rect` (the session's pane is already its pixel size).
    func imageRequest(session: String, rect: CellRect) -> Request?
    /// The full-screen preview request for `rect`, `pixels` in size.
    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request?
    /// Bytes that draw `image` with its top-left corner at `rect`'s.
    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8]
    /// Bytes that remove what `draw` put in `rect`.
    func erase(_ rect: CellRect) -> [UInt8]
}

extension GraphicsBackend {
    func gridRequest(session: String, cellSize: Int, page: Int, rect: CellRect) -> ThumbnailRequest? {
        ThumbnailRequest(session: session, cellSize: cellSize, page: page)
    }

    /// 100 px cells as the design has them, smaller when the pane is narrow.
    func gridCellSize(pixels: (width: Int, height: Int), rect: CellRect) -> Int {
        max(16, min(100, pixels.width / 3))
    }

    func imageRequest(session: String, rect: CellRect) -> Request? {
        .getImage(ImageRequest(session: session, format: .png))
    }

    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? {
        .preview(PreviewRequest(session: session, width: pixels.width, height: pixels.height, format: .png))
    }

    func erase(_ rect: CellRect) -> [UInt8] { ScreenText.blank(rect) }
}
