import PickerProtocol

/// The encoding of a rendered picture.
public struct OutputSpec: Sendable, Equatable, Hashable {
    public var format: ImageFormat
    /// 1–100 for JPEG and WebP; ignored for PNG.
    public var quality: Int

    public init(format: ImageFormat, quality: Int = 85) {
        self.format = format
        self.quality = quality
    }

    /// PNG, the default output of `get-image`.
    public static let png = OutputSpec(format: .png)
}
