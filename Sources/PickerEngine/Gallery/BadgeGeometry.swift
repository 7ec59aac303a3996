/// Where a cell's pick badge goes and how big it is, from the cell size alone:
/// height `D = clamp(size / 4, 12, 32)`, inset `max(2, size / 20)` from the cell's top and
/// right edges; one digit is a circle, more digits widen it to a pill (never wider than the cell).
struct BadgeGeometry: Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    /// Screen pixels per font pixel of `BadgeFont`.
    var glyphScale: Int

    init(number: Int, cellX: Int, cellY: Int, cellSize: Int) {
        let side = min(32, max(12, cellSize / 4))
        let inset = max(2, cellSize / 20)
        glyphScale = max(1, (side - 6) / BadgeFont.glyphHeight)
        // The padding a single digit leaves on either side, kept for longer numbers.
        let padding = side - BadgeFont.glyphWidth * glyphScale
        // Long numbers in tiny cells are capped to the cell (rim included); their digits are clipped.
        let widest = max(side, cellSize - 2 * inset - 3)
        let pillWidth = min(widest, max(side, BadgeFont.width(of: number) * glyphScale + padding))
        width = Double(pillWidth)
        height = Double(side)
        x = Double(cellX + cellSize - inset - pillWidth)
        y = Double(cellY + inset)
    }
}
