import PickerProtocol

/// Where a picture sits in its pane: centred both ways (issue 24 item 7: a portrait photo sat at the
/// pane's left). Its size in cells is its own for symbols, else its pixels over the cell's, rounded up.
enum PicturePlacement {
    static func centred(_ image: EncodedImage, in rect: CellRect, cell: CellPixels) -> CellRect {
        let size = cells(of: image, cell: cell)
        let width = min(rect.width, size.columns), height = min(rect.height, size.rows)
        return CellRect(column: rect.column + (rect.width - width) / 2, row: rect.row + (rect.height - height) / 2,
                        width: width, height: height)
    }

    static func cells(of image: EncodedImage, cell: CellPixels) -> (columns: Int, rows: Int) {
        if image.format == .symbols { return (max(1, image.width), max(1, image.height)) }
        let w = max(1, cell.width), h = max(1, cell.height)
        return (max(1, (image.width + w - 1) / w), max(1, (image.height + h - 1) / h))
    }
}
