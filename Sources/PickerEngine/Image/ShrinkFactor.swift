/// Shrink-on-load: how much a decoder may reduce a picture while decoding.
///
/// JPEG can decode at 1/2, 1/4 or 1/8 scale almost for free (DCT scaling);
/// the final high-quality resample still wants at least twice the target on
/// each axis to work from, so the factor is the largest that leaves that.
public enum ShrinkFactor {
    /// The DCT scale denominators libjpeg supports for shrink-on-load, largest first.
    public static let jpegDenominators = [8, 4, 2, 1]

    /// The largest denominator d in {1, 2, 4, 8} such that the picture decoded
    /// at 1/d is still at least twice `target` on both axes.
    ///
    /// - Parameters:
    ///   - stored: the picture's size as stored (before orientation).
    ///   - target: the final size in the same (stored) axes.
    /// - Returns: 1, 2, 4 or 8; 1 when the picture is not at least 2x the target.
    public static func jpegDenominator(stored: PixelSize, target: PixelSize) -> Int {
        let tw = max(1, target.width), th = max(1, target.height)
        for d in jpegDenominators {
            let s = scaledSize(stored, denominator: d)
            if s.width >= 2 * tw && s.height >= 2 * th { return d }
        }
        return 1
    }

    /// The size libjpeg produces at scale 1/`denominator`: each side divided
    /// and rounded up, so never 0.
    public static func scaledSize(_ stored: PixelSize, denominator: Int) -> PixelSize {
        let d = max(1, denominator)
        return PixelSize(width: max(1, (max(1, stored.width) + d - 1) / d),
                         height: max(1, (max(1, stored.height) + d - 1) / d))
    }
}
