/// An image encoding pickerd writes (output formats: `get-image`, previews, grids). What it reads is
/// `PhotoFormat`; the two share wire values where a format is both. Raw values are wire values: never reuse one.
public enum ImageFormat: UInt8, Sendable, CaseIterable, Codable {
    case jpeg = 1
    case png = 2
    case webp = 3
    /// Output only: a DCS sixel sequence (text) of the fitted picture.
    case sixel = 6
    /// Output only: Unicode block/sextant symbols in 24-bit colour (text), one line a cell row.
    case symbols = 7

    /// The name users see in messages and `--format` ("JPEG", "PNG", "WebP").
    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .sixel: return "sixel"
        case .symbols: return "symbols"
        }
    }

    /// Lower-case name accepted by `--format`.
    public var optionName: String {
        switch self {
        case .jpeg: return "jpeg"
        case .png: return "png"
        case .webp: return "webp"
        case .sixel: return "sixel"
        case .symbols: return "symbols"
        }
    }

    /// Text meant for a terminal (escape sequences), not an image file.
    public var isTerminalText: Bool { self == .sixel || self == .symbols }

    public init?(optionName: String) {
        switch optionName.lowercased() {
        case "jpeg", "jpg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "sixel": self = .sixel
        case "symbols": self = .symbols
        default: return nil
        }
    }
}
