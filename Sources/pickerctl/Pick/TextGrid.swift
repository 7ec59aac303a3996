import PickerProtocol

/// The grid as text, for back-ends without PNG: names in columns, picks numbered, the current one reversed.
enum TextGrid {
    static let cellWidth = 20

    static func draw(model: inout PickerModel, in rect: CellRect, glyphs g: PickGlyphs) -> [UInt8] {
        let columns = max(1, rect.width / cellWidth)
        model.gridColumns = columns
        let photos = (0..<model.photos.count).compactMap { model.photos.item(atRow: $0) }
        let currentRow = photos.firstIndex { $0.index == model.session.photoIndex }.map { $0 / columns } ?? 0
        let firstRow = max(0, currentRow - rect.height + 1)
        let indexes = photos.map(\.index)
        model.gridHit = { column, row in
            let i = (row - rect.row + firstRow) * columns + (column - rect.column) / cellWidth
            return (column - rect.column) / cellWidth < columns && i >= 0 && i < indexes.count ? indexes[i] : nil
        }
        var out = String(decoding: ScreenText.blank(rect), as: UTF8.self)
        for (i, photo) in photos.enumerated() {
            let row = i / columns - firstRow
            guard row >= 0, row < rect.height else { continue }
            let mark = model.pickNumber(of: photo.path).map { "\(g.picked)\($0) " } ?? ""
            let style = photo.index == model.session.photoIndex ? "\u{1b}[7m" : "\u{1b}[0m"
            out += ScreenText.moveTo(column: rect.column + (i % columns) * cellWidth, row: rect.row + row)
            out += style + g.onScreen(PickRenderer.fit(mark + PickRenderer.shown(photo.name), cellWidth - 1, g)) + "\u{1b}[0m"
        }
        return Array(out.utf8)
    }
}
