import PickerProtocol

/// pick's own options, checked before the terminal or the socket is touched.
struct PickOptions {
    var maxSelection: Int?
    var single: Bool
    var graphics: GraphicsKind?
    var nulSeparated: Bool
    var album: String?
    var photo: String?
    /// The symbols `--graphics symbols` draws with (`--symbols`, else the locale's default).
    var symbols: SymbolClass

    init(_ inv: Invocation) throws(CLIError) {
        single = inv.flag("--single")
        maxSelection = try inv.int("--max", in: 1...1000) ?? (single ? 1 : nil)
        nulSeparated = inv.flag("-0")
        album = inv.value("--album")
        photo = inv.value("--photo")
        let raw = inv.value("--graphics") ?? "auto"
        if raw == "auto" {
            graphics = nil
        } else if let kind = GraphicsKind(rawValue: raw) {
            graphics = kind
        } else {
            throw .usage("--graphics must be auto, kitty, iterm, sixel, symbols or none, not '\(raw)'")
        }
        symbols = try SymbolOptions.symbols(inv, environment: PickEnvironment.current())
        if nulSeparated && inv.json { throw .usage("give -0 or --json, not both") }
    }
}
