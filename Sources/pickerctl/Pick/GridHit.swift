import PickerProtocol

/// Clicks on the daemon's grid picture: from a screen cell to the grid cell under it.
enum GridHit {
    static func pixelGrid(_ geometry: GridGeometry, rect: CellRect, cell: CellPixels) -> (Int, Int) -> Int? {
        let cells = geometry.cells
        return { column, row in
            // The centre of the clicked character cell, in the grid picture's pixels.
            let x = (column - rect.column) * cell.width + cell.width / 2
            let y = (row - rect.row) * cell.height + cell.height / 2
            return hit(x, y, in: cells)
        }
    }

    /// For the grid as symbols: the picture is `image.width` × `image.height` terminal cells
    /// standing for the page's `geometry.width` × `geometry.height` pixels (PROTOCOL.md, thumbnails).
    static func symbolGrid(_ geometry: GridGeometry, image: EncodedImage, rect: CellRect) -> (Int, Int) -> Int? {
        let cells = geometry.cells
        let columns = max(1, image.width), rows = max(1, image.height)
        return { column, row in
            let c = column - rect.column, r = row - rect.row
            guard c >= 0, c < columns, r >= 0, r < rows else { return nil }
            // The centre of the terminal cell, in page pixels.
            let x = (2 * c + 1) * geometry.width / (2 * columns)
            let y = (2 * r + 1) * geometry.height / (2 * rows)
            return hit(x, y, in: cells)
        }
    }

    private static func hit(_ x: Int, _ y: Int, in cells: [GridCell]) -> Int? {
        cells.first { x >= $0.x && x < $0.x + $0.size && y >= $0.y && y < $0.y + $0.size }?.index
    }
}
