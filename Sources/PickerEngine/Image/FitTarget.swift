/// The box a picture is scaled into, in display (upright) axes.
public struct FitTarget: Sendable, Equatable, Hashable {
    /// Box width in pixels.
    public var maxWidth: Int
    /// Box height in pixels; nil when only the width bounds the picture.
    public var maxHeight: Int?
    /// When false, a picture smaller than the box keeps its size.
    public var allowUpscale: Bool

    public init(maxWidth: Int, maxHeight: Int?, allowUpscale: Bool = false) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.allowUpscale = allowUpscale
    }

    /// The fitted size for a picture whose upright size is `display`.
    public func fittedSize(for display: PixelSize) -> PixelSize {
        FitMath.fit(display, maxWidth: maxWidth, maxHeight: maxHeight, allowUpscale: allowUpscale)
    }
}
