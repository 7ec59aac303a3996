/// Escape sequences that move the cursor and blank areas, shared by the renderer and the back-ends.
enum ScreenText {
    /// CSI row;column H (0-based in, 1-based on the wire).
    static func moveTo(column: Int, row: Int) -> String { "\u{1b}[\(row + 1);\(column + 1)H" }

    /// Spaces over every cell of `rect`.
    static func blank(_ rect: CellRect) -> [UInt8] {
        var out = "\u{1b}[0m"
        let spaces = String(repeating: " ", count: rect.width)
        for r in 0..<rect.height { out += moveTo(column: rect.column, row: rect.row + r) + spaces }
        return Array(out.utf8)
    }
}
