/// An image encoding pickerd writes (output formats: `get-image`, previews, grids). What it reads is
/// `PhotoFormat`; the two share wire values where a format is both. Raw values are wire values: never reuse one.
public enum ImageFormat: UInt8, Sendable, CaseIterable, Codable {
    case jpeg = 1
    case png = 2
    case webp = 3

    /// The name users see in messages and `--format` ("JPEG", "PNG", "WebP").
    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        }
    }

    /// Lower-case name accepted by `--format`.
    public var optionName: String {
        switch self {
        case .jpeg: return "jpeg"
        case .png: return "png"
        case .webp: return "webp"
        }
    }

    public init?(optionName: String) {
        switch optionName.lowercased() {
        case "jpeg", "jpg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }
}
