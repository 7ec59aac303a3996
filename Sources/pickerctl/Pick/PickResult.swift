import PickerProtocol
import PickerSystem

/// Prints the accepted photos: absolute paths one a line (control characters escaped), exact and
/// NUL-separated with -0, or `selection --json`'s shape.
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
        // Like `selection --paths`: one a line with control characters escaped, so a newline in a name
        // cannot split one path into two for `xargs -d '\n'`; exact bytes only with -0 (issue 21 #7).
        Output.paths(photos.map(\.absolutePath), nulTerminated: options.nulSeparated)
    }
}
