import PickerProtocol

/// Clicks on the daemon's grid picture: from a screen cell to the grid cell under it.
enum GridHit {
    static func pixelGrid(_ geometry: GridGeometry, rect: CellRect, cell: CellPixels) -> (Int, Int) -> Int? {
        let cells = geometry.cells
        return { column, row in
            // The centre of the clicked character cell, in the grid picture's pixels.
            let x = (column - rect.column) * cell.width + cell.width / 2
            let y = (row - rect.row) * cell.height + cell.height / 2
            return cells.first { x >= $0.x && x < $0.x + $0.size && y >= $0.y && y < $0.y + $0.size }?.index
        }
    }
}
