/// Replies that carry pictures: an encoded image, a grid page's geometry and picture.
extension ReplyDeclaration {
    static let images: [ReplyDeclaration] = [
        ReplyDeclaration(type: .image, encode: { reply, w in
            guard case .image(let image) = reply else { return }
            image.encode(into: &w)
            ExtensionArea.picture(symbols: image.symbols, window: image.zoom).encode(into: &w)
        }, decode: { r throws(PickerError) in
            var image = try EncodedImage.decode(from: &r)
            let area = try ExtensionArea.decode(from: &r)
            image.symbols = try area.symbolClass()
            image.zoom = try area.zoomWindow()
            return .image(image)
        }),
        ReplyDeclaration(type: .thumbnailsReply, encode: { reply, w in
            guard case .thumbnails(let sheet) = reply else { return }
            let g = sheet.geometry
            for v in [g.width, g.height, g.cellSize, g.spacing, g.padding, g.columns, g.rows, g.page, g.pages] { w.count(v) }
            w.count(g.cells.count)
            for c in g.cells { c.encode(into: &w) }
            w.bool(sheet.image != nil)
            sheet.image?.encode(into: &w)
            ExtensionArea.symbols(sheet.image?.symbols).encode(into: &w)
        }, decode: { r throws(PickerError) in
            var v: [Int] = []
            for _ in 0..<9 { v.append(Int(try r.u32())) }
            let n = try r.count(minElementSize: 21)
            var cells: [GridCell] = []
            for _ in 0..<n { cells.append(try GridCell.decode(from: &r)) }
            let geometry = GridGeometry(width: v[0], height: v[1], cellSize: v[2], spacing: v[3], padding: v[4],
                                        columns: v[5], rows: v[6], page: v[7], pages: v[8], cells: cells)
            var image = try r.bool() ? try EncodedImage.decode(from: &r) : nil
            let symbols = try ExtensionArea.decode(from: &r).symbolClass()
            image?.symbols = symbols
            return .thumbnails(ThumbnailSheet(geometry: geometry, image: image))
        }),
    ]
}

extension GridCell {
    func encode(into w: inout ByteWriter) {
        w.count(index)
        w.string(name)
        for n in [x, y, size] { w.count(n) }
        w.u8((selected ? 1 : 0) | (current ? 2 : 0) | (broken ? 4 : 0))
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> GridCell {
        let index = Int(try r.u32())
        let name = try r.string()
        let x = Int(try r.u32())
        let y = Int(try r.u32())
        let size = Int(try r.u32())
        let flags = try r.u8()
        return GridCell(index: index, name: name, x: x, y: y, size: size,
                        selected: flags & 1 != 0, current: flags & 2 != 0, broken: flags & 4 != 0)
    }
}
