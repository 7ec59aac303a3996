import PickerClient
import PickerProtocol

/// Options and helpers shared by several command groups.
let widthOption = OptionSpec(name: "--width", valueName: "W", help: "pane width in px (16…8192)")
let heightOption = OptionSpec(name: "--height", valueName: "H", help: "pane height in px (16…8192); omit to bound by width only")
let indexOption = OptionSpec(name: "--index", valueName: "N", help: "pick by 1-based index instead of name")
let paneRange = 16...8192

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
        try Output.binary(img.data, to: path)
        Output.json(.object([("format", .string(img.format.optionName)), ("width", .int(img.width)),
                             ("height", .int(img.height)), ("bytes", .int(img.data.count)), ("path", .string(path))]))
    } else {
        try Output.binary(img.data, to: inv.outputPath)
    }
}

/// Session named by the optional NAME argument, else the global session.
func sessionArgument(_ inv: Invocation) -> String { inv.positional(0) ?? inv.session }
