import PickerProtocol
import PickerSystem

/// Prints the accepted photos: absolute paths one a line, NUL-separated with -0, or `selection --json`'s shape.
enum PickResult {
    static func print(_ photos: [SelectedPhoto], maxSelection: Int, options: PickOptions, json: Bool) {
        if json {
            Output.json(.object([("max_selection", .int(maxSelection)), ("count", .int(photos.count)),
                                 ("photos", .array(photos.enumerated().map { i, p in
                .object([("order", .int(i + 1)), ("album", .string(p.album)), ("name", .string(p.name)),
                         ("width", .int(p.width)), ("height", .int(p.height)), ("path", .string(p.path)),
                         ("absolute_path", .string(p.absolutePath))])
            }))]))
            return
        }
        let separator: UInt8 = options.nulSeparated ? 0 : 0x0a
        // Paths go out exactly as they are for $(…) and xargs; on a terminal, control characters are shown escaped.
        let toTerminal = Terminal.isTerminal(1)
        var bytes: [UInt8] = []
        for photo in photos {
            bytes += Array((toTerminal ? InertText.escaped(photo.absolutePath) : photo.absolutePath).utf8) + [separator]
        }
        _ = Output.writeAll(1, bytes)
    }
}
