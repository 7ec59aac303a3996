import PickerProtocol

/// No pictures: the pane names the photo's size instead.
struct TextOnlyGraphics: GraphicsBackend {
    var kind: GraphicsKind { .none }
    func gridRequest(session: String, cellSize: Int, page: Int, rect: CellRect) -> ThumbnailRequest? { nil }
    func imageRequest(session: String, rect: CellRect) -> Request? { nil }
    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? { nil }
    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] { [] }
}
