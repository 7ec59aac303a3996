import PickerClient
import PickerProtocol

/// Commands that write an image: the current photo, the thumbnail grid, the full-screen preview.
let getImageCommand = CommandSpec(words: ["get-image"], summary: "the current photo, upright, scaled to fit the pane (PNG by default)",
            options: [formatOption, ImageFormatOptions.cells, SymbolOptions.option, qualityOption,
                      OptionSpec(name: "--no-cache", valueName: nil, help: "render afresh, bypassing the daemon's cache")],
            binaryOutput: true,
            details: "Exit code 3 when no photo is selected. Never writes PNG, JPEG or WebP data to a terminal.\nWith --json (and -o FILE), prints the image's format, size and byte count.\n" + ImageFormatOptions.details) { inv throws(CLIError) in
    let (format, quality) = try inv.imageFormat()
    let cells = try ImageFormatOptions.cells(inv, for: format)
    let reply = try inv.call(.getImage(ImageRequest(session: inv.session, format: format, quality: quality,
                                                     noCache: inv.flag("--no-cache"), cells: cells)))
    guard case .image(let img) = reply else { throw unexpected(reply) }
    try writeImage(img, inv)
}

let thumbnailsCommand = CommandSpec(words: ["thumbnails"], summary: "the selected album as a grid image (PNG by default); --json prints the geometry",
            options: [OptionSpec(name: "--size", valueName: "N", help: "cell size in px, \(ProtocolLimits.cellSizeRange.lowerBound)…\(ProtocolLimits.cellSizeRange.upperBound) (default 100)"),
                      OptionSpec(name: "--page", valueName: "N", help: "page when the pane height cuts the grid (default 1)"),
                      formatOption, ImageFormatOptions.cells, SymbolOptions.option],
            binaryOutput: true, jsonReplacesBinary: true,
            details: "Cells are filled and centre-cropped; picked photos sit under a 40% white rounded overlay with their\npick number in a badge, and the current photo is outlined. With --json, prints columns, rows, pages and\neach photo's cell rectangle (in the grid's pixels, whatever the format) instead of the image.\n" + ImageFormatOptions.details) { inv throws(CLIError) in
    let size = try inv.int("--size", in: ProtocolLimits.cellSizeRange, unit: " px")
    let page = try inv.int("--page", in: 1...100_000)
    let (format, _) = try inv.imageFormat()
    let cells = try ImageFormatOptions.cells(inv, for: format)
    let conn = try inv.connect()
    let request = ThumbnailRequest(session: inv.session, cellSize: size, page: page, geometryOnly: inv.json,
                                   format: format, cells: cells)
    let reply: Reply
    do throws(ClientError) {
        reply = try conn.call(.thumbnails(request))
    } catch .server(let e) where e.code == .outOfRange && page != nil {
        throw try pageNotFound(page ?? 0, request, conn)
    } catch {
        throw CLIError(error)
    }
    guard case .thumbnails(let sheet) = reply else { throw unexpected(reply) }
    if inv.json {
        let g = sheet.geometry
        Output.json(.object([
            ("width", .int(g.width)), ("height", .int(g.height)), ("cell_size", .int(g.cellSize)),
            ("spacing", .int(g.spacing)), ("padding", .int(g.padding)), ("columns", .int(g.columns)),
            ("rows", .int(g.rows)), ("page", .int(g.page)), ("pages", .int(g.pages)),
            ("cells", .array(g.cells.map { c in
                .object([("index", .int(c.index)), ("name", .string(c.name)), ("x", .int(c.x)), ("y", .int(c.y)),
                         ("width", .int(c.size)), ("height", .int(c.size)), ("selected", .bool(c.selected)),
                         ("current", .bool(c.current)), ("broken", .bool(c.broken))])
            })),
        ]))
        return
    }
    guard let image = sheet.image else { throw CLIError(message: "pickerd sent no grid image", exitCode: .failure) }
    try Output.binary(ImageFormatOptions.outputBytes(image), to: inv.outputPath, terminalText: image.format.isTerminalText)
}

let previewCommand = CommandSpec(words: ["preview"], summary: "the current photo scaled to fit a full screen (default 1920x1080), centred on black",
            options: [OptionSpec(name: "--width", valueName: "W", help: "screen width in px (default 1920)"),
                      OptionSpec(name: "--height", valueName: "H", help: "screen height in px (default 1080)"),
                      OptionSpec(name: "--zoom", valueName: "X,Y", help: "1:1 (a photo pixel to a screen pixel) around X,Y, fractions of the photo's width and height (0.5,0.5: its centre)"),
                      formatOption, ImageFormatOptions.cells, SymbolOptions.option, qualityOption],
            binaryOutput: true,
            details: "Unlike get-image, the photo is scaled up when the screen is larger. Exit code 3 when no photo is selected.\nWith --zoom the screen shows a window of the photo at full size, kept inside the photo; with --json (and -o FILE)\nthe output says where it lies (zoom: left, top, width, height, photo_width, photo_height).\n" + ImageFormatOptions.details) { inv throws(CLIError) in
    let width = try inv.paneSide("--width") ?? 1920
    let height = try inv.paneSide("--height") ?? 1080
    let (format, quality) = try inv.imageFormat()
    let cells = try ImageFormatOptions.cells(inv, for: format)
    let reply = try inv.call(.preview(PreviewRequest(session: inv.session, width: width, height: height,
                                                     format: format, quality: quality, cells: cells, zoom: try zoomOption(inv))))
    guard case .image(let img) = reply else { throw unexpected(reply) }
    try writeImage(img, inv)
}

/// `--zoom X,Y`: two fractions 0…1.
private func zoomOption(_ inv: Invocation) throws(CLIError) -> PreviewZoom? {
    guard let text = inv.value("--zoom") else { return nil }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
    guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else {
        throw .usage("--zoom takes X,Y: two fractions from 0 to 1 (0.5,0.5 is the photo's centre), not '\(text)'")
    }
    return PreviewZoom(fractionX: x, fractionY: y)
}

/// A page past the grid's last is "not found" (exit 4), naming how many pages there are.
private func pageNotFound(_ page: Int, _ request: ThumbnailRequest, _ conn: PickerConnection) throws(CLIError) -> CLIError {
    var first = request
    first.page = 1
    first.geometryOnly = true
    guard case .thumbnails(let sheet) = try call(conn, .thumbnails(first)) else {
        return CLIError(message: "no page \(page)", exitCode: .notFound)
    }
    let pages = sheet.geometry.pages
    return CLIError(message: "no page \(page): the grid has \(pages) page\(pages == 1 ? "" : "s") at this cell size and pane", exitCode: .notFound)
}
