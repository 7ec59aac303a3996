/// An image encoding pickerd writes (output formats: `get-image`, previews, grids). What it reads is
/// `PhotoFormat`; the two share wire values where a format is both. Raw values are wire values: never reuse one.
///
/// A struct, not an enum: a client keeps an output format a newer server lists or sends (`format-N`);
/// the server refuses a format it does not write (`isKnown` false) with `invalid_argument`.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, Codable, CaseIterable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let jpeg = ImageFormat(rawValue: 1)
    public static let png = ImageFormat(rawValue: 2)
    public static let webp = ImageFormat(rawValue: 3)
    /// Output only: a DCS sixel sequence (text) of the fitted picture.
    public static let sixel = ImageFormat(rawValue: 6)
    /// Output only: Unicode block/sextant symbols in 24-bit colour (text), one line a cell row.
    public static let symbols = ImageFormat(rawValue: 7)

    /// Every output format this build writes, with its display and option names, in wire order.
    private static let table: [(format: ImageFormat, display: String, option: String)] = [
        (.jpeg, "JPEG", "jpeg"), (.png, "PNG", "png"), (.webp, "WebP", "webp"),
        (.sixel, "sixel", "sixel"), (.symbols, "symbols", "symbols"),
    ]

    public static let allCases: [ImageFormat] = table.map(\.format)

    /// Whether this build writes the format (a value from a newer peer is not known).
    public var isKnown: Bool { ImageFormat.table.contains { $0.format == self } }

    /// The name users see in messages and `--format` ("JPEG", "PNG", "WebP"; `format-N` for an unknown one).
    public var displayName: String { ImageFormat.table.first { $0.format == self }?.display ?? "format-\(rawValue)" }

    /// Lower-case name accepted by `--format` (`format-N` for an unknown one).
    public var optionName: String { ImageFormat.table.first { $0.format == self }?.option ?? "format-\(rawValue)" }

    /// Text meant for a terminal (escape sequences), not an image file.
    public var isTerminalText: Bool { self == .sixel || self == .symbols }

    public init?(optionName: String) {
        let name = optionName.lowercased() == "jpg" ? "jpeg" : optionName.lowercased()
        guard let row = ImageFormat.table.first(where: { $0.option == name }) else { return nil }
        self = row.format
    }
}
