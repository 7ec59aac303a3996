/// Overflow-safe size arithmetic: the one place where pixel and byte counts are multiplied and added.
///
/// Declared sizes come from files and from the index, so a product of them must never trap
/// (an `Int` overflow is a SIGILL that takes the daemon down). Every count here saturates at
/// `Int.max` and treats a negative factor as 0: an absurd size gives an absurd estimate, which the
/// work budget then refuses, instead of a crash.
public enum PixelCount {
    /// The largest declared width × height a header may have: the highest `--max-megapixels`
    /// pickerd accepts (10000). A header declaring more is refused when it is read, so neither a
    /// listing nor the index ever holds it; sizes below this but over the configured cap are
    /// refused by the decoder.
    public static let maxDeclaredPixels = 10_000 * 1_000_000

    /// `width × height`, saturating.
    public static func pixels(_ width: Int, _ height: Int) -> Int {
        product(width, height)
    }

    /// `size.width × size.height`, saturating.
    public static func pixels(_ size: PixelSize) -> Int {
        product(size.width, size.height)
    }

    /// The product of `factors`, each negative one taken as 0, saturating at `Int.max`.
    public static func product(_ factors: Int...) -> Int {
        var result = 1
        for factor in factors {
            let (value, overflow) = result.multipliedReportingOverflow(by: max(0, factor))
            if overflow { return factors.contains(where: { $0 <= 0 }) ? 0 : Int.max }
            result = value
        }
        return result
    }

    /// The sum of `terms`, each negative one taken as 0, saturating at `Int.max`.
    public static func sum(_ terms: Int...) -> Int {
        var result = 0
        for term in terms {
            let (value, overflow) = result.addingReportingOverflow(max(0, term))
            if overflow { return Int.max }
            result = value
        }
        return result
    }

    /// Whether a declared `width × height` may be listed: both sides positive and the area
    /// within `maxDeclaredPixels`.
    public static func isListable(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && pixels(width, height) <= maxDeclaredPixels
    }
}
