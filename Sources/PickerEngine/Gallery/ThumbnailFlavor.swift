/// The thumbnail sizes of the freedesktop.org Thumbnail Managing Standard (0.9.0):
/// the raw value is the box a thumbnail's longest side must fit in.
///
/// A thumbnail is the picture scaled to fit the box, keeping its aspect and never
/// enlarged: a picture that already fits is stored at its own size.
public enum ThumbnailFlavor: Int, CaseIterable, Sendable {
    case normal = 128
    case large = 256
    case xLarge = 512
    case xxLarge = 1024

    /// The folder under `$XDG_CACHE_HOME/thumbnails` that holds this size.
    public var directoryName: String {
        switch self {
        case .normal: return "normal"
        case .large: return "large"
        case .xLarge: return "x-large"
        case .xxLarge: return "xx-large"
        }
    }

    /// The size of this flavor's thumbnail of a picture shown at `displayWidth` × `displayHeight`
    /// (upright): fitted into the box, rounded down, never upscaled.
    public func thumbnailSize(displayWidth: Int, displayHeight: Int) -> PixelSize {
        FitMath.fit(width: displayWidth, height: displayHeight, maxWidth: rawValue,
                    maxHeight: rawValue, allowUpscale: false)
    }

    /// The smallest flavor whose thumbnail of a picture shown at `displayWidth` × `displayHeight`
    /// has its short side at least `coveringShortSide` pixels, so a fill-and-crop cell of that
    /// size can be cut from it without enlarging.
    ///
    /// - Returns: nil when no flavor is big enough (the picture itself is smaller than the
    ///   cell, or the cell is larger than an xx-large thumbnail allows).
    public static func smallest(coveringShortSide minimumShortSide: Int, displayWidth: Int,
                                displayHeight: Int) -> ThumbnailFlavor? {
        allCases.first { flavor in
            let size = flavor.thumbnailSize(displayWidth: displayWidth, displayHeight: displayHeight)
            return min(size.width, size.height) >= minimumShortSide
        }
    }
}
