import PickerProtocol

/// The encoding of a rendered picture.
public struct OutputSpec: Sendable, Equatable, Hashable {
    public var format: ImageFormat
    /// 1–100 for JPEG and WebP; ignored for PNG and the terminal formats.
    public var quality: Int
    /// The cell grid `symbols` is fitted into; nil for every other format (sixel is drawn at
    /// the picture's own pixel size), so the cache never splits on cells it does not use.
    public var cells: TerminalCells?

    public init(format: ImageFormat, quality: Int = 85, cells: TerminalCells? = nil) {
        self.format = format
        // Quality means nothing to the terminal formats: one value, so the cache never splits on it.
        self.quality = format.isTerminalText ? 100 : quality
        self.cells = format == .symbols ? cells : nil
    }

    /// PNG, the default output of `get-image`.
    public static let png = OutputSpec(format: .png)
}
