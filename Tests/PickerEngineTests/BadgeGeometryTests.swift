@testable import PickerEngine
import Testing

/// The pick badge's size and place, and its bitmap digits.
@Suite struct BadgeGeometryTests {
    @Test(arguments: [16, 17, 32, 64, 100, 128, 256, 1024])
    func badgeWithItsRimStaysInsideTheCellTopRight(cellSize: Int) {
        for number in [1, 9, 10, 99, 100, 1000] {
            let b = BadgeGeometry(number: number, cellX: 0, cellY: 0, cellSize: cellSize)
            #expect(b.x - 1.5 >= 0 && b.y - 1.5 >= 0, "size \(cellSize), \(number): \(b)")
            #expect(b.x + b.width + 1.5 <= Double(cellSize) && b.y + b.height + 1.5 <= Double(cellSize))
            // Top right: nearer the right edge than the left, and the top than the bottom.
            #expect(Double(cellSize) - (b.x + b.width) < b.x || b.width >= Double(cellSize) / 2)
            #expect(b.y <= Double(cellSize) - (b.y + b.height))
            // The digits fit inside the badge (up to four digits from 64 px cells on).
            if cellSize >= 64 || number < 10 {
                #expect(BadgeFont.width(of: number) * b.glyphScale <= Int(b.width), "size \(cellSize), \(number)")
            }
            #expect(BadgeFont.glyphHeight * b.glyphScale <= Int(b.height))
        }
    }

    @Test func oneDigitIsACircleAndMoreDigitsWidenIt() {
        let one = BadgeGeometry(number: 7, cellX: 16, cellY: 16, cellSize: 100)
        let two = BadgeGeometry(number: 10, cellX: 16, cellY: 16, cellSize: 100)
        #expect(one.width == one.height && one.height == 25)
        #expect(one.x == 16 + 100 - 5 - 25 && one.y == 16 + 5)
        #expect(two.width > one.width && two.height == one.height)
        #expect(two.x + two.width == one.x + one.width, "both keep the same right inset")
    }

    @Test func theTenDigitsAreDistinctBitmaps() {
        let bitmaps = (0...9).map { d in
            (0..<BadgeFont.glyphHeight).flatMap { row in
                (0..<BadgeFont.glyphWidth).map { BadgeFont.isLit(d, column: $0, row: row) }
            }
        }
        #expect(Set(bitmaps.map { $0.description }).count == 10)
        // Between two digits there is one unlit column.
        #expect((0..<BadgeFont.glyphHeight).allSatisfy { !BadgeFont.isLit(88, column: BadgeFont.glyphWidth, row: $0) })
        #expect(BadgeFont.width(of: 88) == 11)
    }
}
