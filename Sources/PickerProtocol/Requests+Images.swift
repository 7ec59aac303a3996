/// Requests that render pictures: the current photo, a fitted preview, a grid page.
extension RequestDeclaration {
    static let images: [RequestDeclaration] = [
        RequestDeclaration(.getImage, answer: .image, .image, encode: { request, w in
            guard case .getImage(let r) = request else { return }
            w.string(r.session)
            w.u8(r.format.rawValue)
            w.u8(UInt8(clamping: r.quality ?? 0))
            w.u8((r.noCache ? 1 : 0) | (r.cells == nil ? 0 : TerminalCells.flagBit))
            r.cells?.encode(into: &w)
            ExtensionArea.symbols(r.cells?.symbols).encode(into: &w)
        }, decode: { r throws(PickerError) in
            let session = try r.string()
            let format = try outputFormat(&r)
            let quality = Int(try r.u8())
            let flags = try r.u8()
            let cells = try decodeCells(flags, &r)
            return .getImage(ImageRequest(session: session, format: format, quality: quality == 0 ? nil : quality,
                                          noCache: flags & 1 != 0, cells: cells))
        }),
        RequestDeclaration(.thumbnails, answer: .thumbnailsReply, .image, encode: { request, w in
            guard case .thumbnails(let r) = request else { return }
            w.string(r.session)
            w.count(r.cellSize ?? 0)
            w.count(r.page ?? 0)
            // Format and cells are sent only when asked for, so PNG requests stay byte for byte what they were.
            let sendsFormat = r.format != .png
            w.u8((r.geometryOnly ? 1 : 0) | (r.cells == nil ? 0 : TerminalCells.flagBit)
                 | (sendsFormat ? ThumbnailRequest.formatFlagBit : 0))
            if sendsFormat { w.u8(r.format.rawValue) }
            r.cells?.encode(into: &w)
            ExtensionArea.symbols(r.cells?.symbols).encode(into: &w)
        }, decode: { r throws(PickerError) in
            let session = try r.string()
            let size = Int(try r.u32())
            let page = Int(try r.u32())
            let flags = try r.u8()
            let format = flags & ThumbnailRequest.formatFlagBit != 0 ? try outputFormat(&r) : .png
            let cells = try decodeCells(flags, &r)
            return .thumbnails(ThumbnailRequest(session: session, cellSize: size == 0 ? nil : size,
                                                page: page == 0 ? nil : page, geometryOnly: flags & 1 != 0,
                                                format: format, cells: cells))
        }),
        RequestDeclaration(.preview, answer: .image, .image, encode: { request, w in
            guard case .preview(let r) = request else { return }
            w.string(r.session)
            w.count(r.width)
            w.count(r.height)
            w.u8(r.format.rawValue)
            w.u8(UInt8(clamping: r.quality ?? 0))
            // The flags byte is optional in preview: sent only when cells or a zoom follow, so
            // older preview frames stay byte for byte what they were. An extension area always
            // comes after the flags byte.
            if r.cells != nil || r.zoom != nil {
                w.u8(r.cells == nil ? 0 : TerminalCells.flagBit)
                r.cells?.encode(into: &w)
                ExtensionArea.picture(symbols: r.cells?.symbols, zoom: r.zoom).encode(into: &w)
            }
        }, decode: { r throws(PickerError) in
            let session = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let format = try outputFormat(&r)
            let quality = Int(try r.u8())
            let flags = r.remaining > 0 ? try r.u8() : 0
            let (cells, area) = try decodeCellsAndArea(flags, &r)
            return .preview(PreviewRequest(session: session, width: width, height: height, format: format,
                                           quality: quality == 0 ? nil : quality, cells: cells, zoom: try area.previewZoom()))
        }),
    ]

    /// The cells (when `flags` has bit 1), then the extension area to the end of the payload,
    /// whose symbol class entry goes with the cells (ignored without them).
    static func decodeCells(_ flags: UInt8, _ r: inout ByteReader) throws(PickerError) -> TerminalCells? {
        try decodeCellsAndArea(flags, &r).cells
    }

    /// The same, with the whole extension area for the request's other entries.
    static func decodeCellsAndArea(_ flags: UInt8, _ r: inout ByteReader) throws(PickerError) -> (cells: TerminalCells?, area: ExtensionArea) {
        var cells = flags & TerminalCells.flagBit != 0 ? try TerminalCells.decode(from: &r) : nil
        let area = try ExtensionArea.decode(from: &r)
        cells?.symbols = try area.symbolClass()
        return (cells, area)
    }

    /// An output format byte; one this server does not write is `invalid_argument`.
    static func outputFormat(_ r: inout ByteReader) throws(PickerError) -> ImageFormat {
        let format = ImageFormat(rawValue: try r.u8())
        guard format.isKnown else { throw PickerError(.invalidArgument, "unknown output format \(format.rawValue)") }
        return format
    }
}
