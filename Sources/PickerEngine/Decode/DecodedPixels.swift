import PickerProtocol

/// What a decode answers: the picture in memory, or a sandboxed worker's rows still in its memfd,
/// which a streaming encoder reads band by band (`SealedPixelRows`) and anything else reads whole.
public enum DecodedPixels {
    case image(PixelImage)
    case rows(SealedPixelRows)

    /// The whole picture in memory.
    public func image() throws(PickerError) -> PixelImage {
        switch self {
        case .image(let image): return image
        case .rows(let rows): return try rows.readAll()
        }
    }
}
