/// A block of terminal character cells (columns × rows) that a text picture is drawn in.
/// On the wire: u16 cols, u16 rows, after a flags byte with bit 1 set.
public struct TerminalCells: Sendable, Equatable, Hashable {
    public var columns: Int
    public var rows: Int

    /// Either side's allowed range; outside it is `out_of_range`.
    public static let range = 1...1000
    /// The flags bit that says cells follow the flags byte.
    public static let flagBit: UInt8 = 1 << 1

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

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
