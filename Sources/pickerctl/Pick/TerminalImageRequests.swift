import PickerProtocol

/// Requests for the daemon's terminal formats (sixel = 6, symbols = 7, cells after flags bit 1).
/// Kept in one place: they arrive with the `termgfx` branch; until it is merged these return nil and the
/// text back-ends show no picture.
enum TerminalImageRequests {
    static func sixel(session: String) -> Request? { nil }
    static func sixelPreview(session: String, pixels: (width: Int, height: Int)) -> Request? { nil }
    static func symbols(session: String, columns: Int, rows: Int) -> Request? { nil }
    static func symbolsPreview(session: String, columns: Int, rows: Int, pixels: (width: Int, height: Int)) -> Request? { nil }
    /// Whether the daemon said it writes the format (its capabilities).
    static func supported(_ kind: GraphicsKind, by capabilities: Capabilities) -> Bool { false }
}
