import PickerClient
import PickerProtocol

// Options and helpers shared by several command groups.

/// Pane sides in px, as the daemon checks them.
let paneRange = ProtocolLimits.paneSizeRange
/// `16…8192`
let paneRangeText = "\(paneRange.lowerBound)…\(paneRange.upperBound)"
let widthOption = OptionSpec(name: "--width", valueName: "W", help: "pane width in px (\(paneRangeText))")
let heightOption = OptionSpec(name: "--height", valueName: "H", help: "pane height in px (\(paneRangeText)); omit to bound by width only")
let indexOption = OptionSpec(name: "--index", valueName: "N", help: "pick by 1-based index instead of name")

/// The `--format` words, the default (png) first; derived from `ImageFormat`, so a format added there is offered here.
let formatNames = ([ImageFormat.png] + ImageFormat.allCases.filter { $0 != .png }).map(\.optionName)
let formatOption = OptionSpec(name: "--format", valueName: formatNames.joined(separator: "|"), help: "output format (default png)",
                              completion: .words(formatNames))
/// Formats whose encoder takes a quality.
private let lossyFormats: Set<ImageFormat> = [.jpeg, .webp]
let qualityOption = OptionSpec(name: "--quality", valueName: "Q", help: "JPEG/WebP quality 1…100 (default 85 / 80)")

extension Invocation {
    /// A pane side option (`--width`, `--height`) within the daemon's range, or nil when absent.
    func paneSide(_ name: String) throws(CLIError) -> Int? {
        try int(name, in: paneRange, unit: " px")
    }

    /// `--format` (default png) and `--quality`, which only a lossy format takes.
    func imageFormat() throws(CLIError) -> (format: ImageFormat, quality: Int?) {
        let raw = value("--format") ?? "png"
        guard let format = ImageFormat(optionName: raw) else {
            throw .usage("--format must be \(Help.alternatives(formatNames)), not '\(raw)'")
        }
        let quality = try int("--quality", in: 1...100)
        if quality != nil && !lossyFormats.contains(format) {
            throw .usage("--quality applies to \(Help.alternatives(lossyFormats.map(\.optionName).sorted())) only, not \(format.optionName)")
        }
        return (format, quality)
    }
}

/// Prints a session state reply (text or JSON).
func printSession(_ reply: Reply, _ inv: Invocation) throws(CLIError) {
    guard case .session(let s) = reply else { throw unexpected(reply) }
    if inv.json { Output.json(Render.sessionJSON(s)) } else { Output.line(Render.sessionText(s)) }
}

func unexpected(_ reply: Reply) -> CLIError {
    CLIError(message: "unexpected reply \(reply.messageType) from pickerd", exitCode: .failure)
}

/// Writes an image to -o FILE or stdout; with --json, the image must go to -o and stdout gets its description.
func writeImage(_ img: EncodedImage, _ inv: Invocation) throws(CLIError) {
    if inv.json {
        guard let path = inv.outputPath else { throw .usage("--json needs -o FILE for the image itself") }
        try Output.binary(ImageFormatOptions.outputBytes(img), to: path, terminalText: img.format.isTerminalText)
        var fields: [(String, JSONValue)] = [("format", .string(img.format.optionName)), ("width", .int(img.width)),
                                             ("height", .int(img.height)), ("bytes", .int(img.data.count)), ("path", .string(path))]
        if let z = img.zoom {
            fields.append(("zoom", .object([("left", .int(z.left)), ("top", .int(z.top)), ("width", .int(z.width)),
                                            ("height", .int(z.height)), ("photo_width", .int(z.pictureWidth)),
                                            ("photo_height", .int(z.pictureHeight))])))
        }
        Output.json(.object(fields))
    } else {
        try Output.binary(ImageFormatOptions.outputBytes(img), to: inv.outputPath, terminalText: img.format.isTerminalText)
    }
}

/// Session named by the optional NAME argument, else the global session.
func sessionArgument(_ inv: Invocation) -> String { inv.positional(0) ?? inv.session }

/// One request on an open connection.
func call(_ conn: PickerConnection, _ request: Request) throws(CLIError) -> Reply {
    do throws(ClientError) {
        return try conn.call(request)
    } catch {
        throw CLIError(error)
    }
}
