/// Which Unicode symbols a `symbols` picture is drawn with (chafa's symbol classes). Raw values are
/// wire values (extension tag 1 of `getImage`, `preview` and `thumbnails`): never reuse one.
///
/// A struct, not an enum: a newer client may ask for a class this server does not draw; the value
/// travels through, the server draws `block` for it and says so in the reply (`drawn`).
public struct SymbolClass: RawRepresentable, Hashable, Sendable, CaseIterable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Block elements (U+2580–U+259F) and space: in every monospace font. The default.
    public static let block = SymbolClass(rawValue: 0)
    /// Blocks, box-drawing borders and sextants (U+1FB00–U+1FB3B, Unicode 13): finer, but only
    /// fonts or terminals that draw "Symbols for Legacy Computing" show them (kitty, foot draw them
    /// themselves). What `symbols` was before classes existed.
    public static let sextant = SymbolClass(rawValue: 1)
    /// Printable ASCII only, for terminals whose locale is not UTF-8.
    public static let ascii = SymbolClass(rawValue: 2)

    /// The extension tag that carries the class in the requests and the class drawn in their replies.
    public static let extensionTag: UInt8 = 1

    private static let table: [(symbols: SymbolClass, option: String)] = [
        (.block, "block"), (.sextant, "sextant"), (.ascii, "ascii"),
    ]

    public static let allCases: [SymbolClass] = table.map(\.symbols)

    /// Whether this build draws the class.
    public var isKnown: Bool { SymbolClass.table.contains { $0.symbols == self } }

    /// What a server of this build draws when asked for this class: itself, `block` for an unknown one.
    public var drawn: SymbolClass { isKnown ? self : .block }

    /// The name `--symbols` takes (`class-N` for an unknown one).
    public var optionName: String { SymbolClass.table.first { $0.symbols == self }?.option ?? "class-\(rawValue)" }

    public init?(optionName: String) {
        guard let row = SymbolClass.table.first(where: { $0.option == optionName.lowercased() }) else { return nil }
        self = row.symbols
    }
}

extension ExtensionArea {
    /// The symbol class of entry `SymbolClass.extensionTag`, nil when absent; an entry that is not
    /// one byte is `malformed_frame`. Unknown values are kept.
    func symbolClass() throws(PickerError) -> SymbolClass? {
        guard let bytes = bytes(SymbolClass.extensionTag) else { return nil }
        guard bytes.count == 1 else {
            throw PickerError(.malformedFrame, "symbol class entry has \(bytes.count) bytes, not 1")
        }
        return SymbolClass(rawValue: bytes[0])
    }

    /// An area holding only the symbol class entry, empty for nil.
    static func symbols(_ symbols: SymbolClass?) -> ExtensionArea {
        guard let symbols else { return ExtensionArea() }
        return ExtensionArea([.init(tag: SymbolClass.extensionTag, bytes: [symbols.rawValue])])
    }
}
