/// The digits of the grid's pick badges as a 5×7 bitmap font, so the daemon draws numbers
/// without a font library. Each glyph is 7 rows, top first; bit 4 of a row is its left column.
enum BadgeFont {
    static let glyphWidth = 5
    static let glyphHeight = 7
    /// Blank columns between two digits, in font pixels.
    static let letterSpacing = 1

    private static let digits: [[UInt8]] = [
        [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],  // 0
        [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],  // 1
        [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],  // 2
        [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],  // 3
        [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],  // 4
        [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],  // 5
        [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],  // 6
        [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],  // 7
        [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],  // 8
        [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],  // 9
    ]

    /// Width of `text` in font pixels (digits only; other characters are skipped).
    static func width(of number: Int) -> Int {
        let count = String(max(0, number)).count
        return count * glyphWidth + (count - 1) * letterSpacing
    }

    /// True when font pixel (column, row) of `number`, set in one line, is lit.
    static func isLit(_ number: Int, column: Int, row: Int) -> Bool {
        guard row >= 0, row < glyphHeight, column >= 0 else { return false }
        let text = Array(String(max(0, number)).utf8)
        let advance = glyphWidth + letterSpacing
        let index = column / advance, x = column % advance
        guard index < text.count, x < glyphWidth else { return false }
        let digit = Int(text[index]) - 48
        guard (0...9).contains(digit) else { return false }
        return digits[digit][row] & (1 << (glyphWidth - 1 - x)) != 0
    }
}
