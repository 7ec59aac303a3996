import PickerClient
import PickerProtocol

/// Commands that write an image: the current photo, the thumbnail grid, the full-screen preview.
let getImageCommand = CommandSpec(words: ["get-image"], summary: "the current photo, upright, scaled to fit the pane (PNG by default)",
            options: [OptionSpec(name: "--format", valueName: "png|jpeg|webp", help: "output format (default png)"),
                      OptionSpec(name: "--quality", valueName: "Q", help: "JPEG/WebP quality 1…100 (default 85 / 80)"),
                      OptionSpec(name: "--no-cache", valueName: nil, help: "render afresh, bypassing the daemon's cache")],
            binaryOutput: true,
            details: "Exit code 3 when no photo is selected. Never writes image data to a terminal.\nWith --json (and -o FILE), prints the image's format, size and byte count.") { inv throws(CLIError) in
    let raw = inv.value("--format") ?? "png"
    guard let format = ImageFormat(optionName: raw) else { throw .usage("--format must be png, jpeg or webp, not '\(raw)'") }
    let quality = try inv.int("--quality", in: 1...100)
    let reply = try inv.call(.getImage(ImageRequest(session: inv.session, format: format, quality: quality,
                                                     noCache: inv.flag("--no-cache"))))
    guard case .image(let img) = reply else { throw unexpected(reply) }
    try writeImage(img, inv)
}

let thumbnailsCommand = CommandSpec(words: ["thumbnails"], summary: "the selected album as a grid image (PNG); --json prints the geometry",
            options: [OptionSpec(name: "--size", valueName: "N", help: "cell size in px, 16…1024 (default 100)"),
                      OptionSpec(name: "--page", valueName: "N", help: "page when the pane height cuts the grid (default 1)")],
            binaryOutput: true, jsonReplacesBinary: true,
            details: "Cells are filled and centre-cropped; picked photos sit under a 40% white rounded overlay and the\ncurrent photo is outlined. With --json, prints columns, rows, pages and each photo's cell rectangle\ninstead of the image.") { inv throws(CLIError) in
    let size = try inv.int("--size", in: 16...1024, unit: " px")
    let page = try inv.int("--page", in: 1...100_000)
    let reply = try inv.call(.thumbnails(ThumbnailRequest(session: inv.session, cellSize: size, page: page,
                                                          geometryOnly: inv.json)))
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
                         ("current", .bool(c.current))])
            })),
        ]))
        return
    }
    guard let image = sheet.image else { throw CLIError(message: "pickerd sent no grid image", exitCode: .failure) }
    try Output.binary(image.data, to: inv.outputPath)
}

let previewCommand = CommandSpec(words: ["preview"], summary: "the current photo scaled to fit a full screen (default 1920x1080), centred on black",
            options: [OptionSpec(name: "--width", valueName: "W", help: "screen width in px (default 1920)"),
                      OptionSpec(name: "--height", valueName: "H", help: "screen height in px (default 1080)"),
                      OptionSpec(name: "--format", valueName: "png|jpeg|webp", help: "output format (default png)"),
                      OptionSpec(name: "--quality", valueName: "Q", help: "JPEG/WebP quality 1…100")],
            binaryOutput: true,
            details: "Unlike get-image, the photo is scaled up when the screen is larger. Exit code 3 when no photo is selected.") { inv throws(CLIError) in
    let width = try inv.int("--width", in: paneRange, unit: " px") ?? 1920
    let height = try inv.int("--height", in: paneRange, unit: " px") ?? 1080
    let raw = inv.value("--format") ?? "png"
    guard let format = ImageFormat(optionName: raw) else { throw .usage("--format must be png, jpeg or webp, not '\(raw)'") }
    let quality = try inv.int("--quality", in: 1...100)
    let reply = try inv.call(.preview(PreviewRequest(session: inv.session, width: width, height: height,
                                                     format: format, quality: quality)))
    guard case .image(let img) = reply else { throw unexpected(reply) }
    try writeImage(img, inv)
}
