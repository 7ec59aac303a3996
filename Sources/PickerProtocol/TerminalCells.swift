/// A block of terminal character cells (columns × rows) that a text picture is drawn in.
/// On the wire: u16 cols, u16 rows, after a flags byte with bit 1 set; the symbol class, added
/// later, in the message's extension area (tag `SymbolClass.extensionTag`).
public struct TerminalCells: Sendable, Equatable, Hashable {
    public var columns: Int
    public var rows: Int
    /// The symbol class asked for; nil when the request named none (drawn as `block`).
    public var symbols: SymbolClass?

    /// Either side's allowed range; outside it is `out_of_range`.
    public static let range = 1...1000
    /// The flags bit that says cells follow the flags byte.
    public static let flagBit: UInt8 = 1 << 1

    public init(columns: Int, rows: Int, symbols: SymbolClass? = nil) {
        self.columns = columns
        self.rows = rows
        self.symbols = symbols
    }

    /// The class a server of this build draws these cells with: the one asked for when it knows
    /// it, else `block` (no class asked, or one from a newer client).
    public var drawnSymbols: SymbolClass { symbols?.drawn ?? .block }

    /// Reads cols and rows; a side of 0 or over 1000 is `out_of_range`.
    static func decode(from r: inout ByteReader) throws(PickerError) -> TerminalCells {
        let cells = TerminalCells(columns: Int(try r.u16()), rows: Int(try r.u16()))
        guard range.contains(cells.columns), range.contains(cells.rows) else {
            throw PickerError(.outOfRange, "cells \(cells.columns)x\(cells.rows) are out of range 1…1000 a side")
        }
        return cells
    }

    func encode(into w: inout ByteWriter) {
        w.u16(UInt16(clamping: columns))
        w.u16(UInt16(clamping: rows))
    }
}
