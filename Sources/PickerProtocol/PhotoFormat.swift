/// The format of a photo in the library: what pickerd reads (listings, capabilities' input formats).
///
/// Decode-only formats (HEIC, AVIF, GIF, JPEG XL, RAW) live here and never in `ImageFormat`, the output side, so they
/// cannot be requested as output. A struct, not an enum: a newer server may list a format this client
/// does not know, and its value travels through (shown as `format-N`). Raw values are wire values,
/// shared with `ImageFormat` where a format is both read and written: never reuse one.
public struct PhotoFormat: RawRepresentable, Hashable, Sendable, Codable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The input format of a file written as `output` (they share wire values).
    public init(_ output: ImageFormat) { self.rawValue = output.rawValue }

    public static let jpeg = PhotoFormat(rawValue: 1)
    public static let png = PhotoFormat(rawValue: 2)
    public static let webp = PhotoFormat(rawValue: 3)
    /// HEIF with HEVC pictures (iPhone `.heic`), and other non-AV1 HEIF files.
    public static let heic = PhotoFormat(rawValue: 4)
    /// HEIF with AV1 pictures.
    public static let avif = PhotoFormat(rawValue: 5)
    // 6 and 7 are the output-only terminal formats (sixel, symbols).
    /// GIF (87a/89a); an animation is shown by its first frame.
    public static let gif = PhotoFormat(rawValue: 8)
    /// JPEG XL (bare codestream or ISO BMFF container).
    public static let jxl = PhotoFormat(rawValue: 9)
    /// Camera RAW (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, PEF, ...): shown from its embedded preview.
    public static let raw = PhotoFormat(rawValue: 10)

    /// Every input format this build knows, in wire order.
    public static let known: [PhotoFormat] = [.jpeg, .png, .webp, .heic, .avif, .gif, .jxl, .raw]

    /// The short name clients use in their tables ("jpeg", "heic", "jxl"...; `format-N` for an unknown one).
    public var shortName: String {
        let names: [UInt8: String] = [1: "jpeg", 2: "png", 3: "webp", 4: "heic", 5: "avif", 8: "gif", 9: "jxl", 10: "raw"]
        return names[rawValue] ?? "format-\(rawValue)"
    }

    /// The name users see ("JPEG", "PNG", "WebP", "HEIC", "AVIF", "GIF", "JPEG XL", "RAW"; `format-N` for an unknown one).
    public var displayName: String {
        switch rawValue {
        case 1: return "JPEG"
        case 2: return "PNG"
        case 3: return "WebP"
        case 4: return "HEIC"
        case 5: return "AVIF"
        case 8: return "GIF"
        case 9: return "JPEG XL"
        case 10: return "RAW"
        default: return "format-\(rawValue)"
        }
    }

    /// The output format with the same wire value, when this format can also be written.
    public var outputFormat: ImageFormat? {
        let output = ImageFormat(rawValue: rawValue)
        return output.isKnown ? output : nil
    }
}
