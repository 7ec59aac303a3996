import PickerProtocol

/// `--cells` and the terminal-text rules of `get-image` and `preview` (`--format` itself is `formatOption`).
enum ImageFormatOptions {
    static let cells = OptionSpec(name: "--cells", valueName: "COLSxROWS",
                                  help: "terminal cells to draw symbols in, 1…1000 a side (needed by --format symbols)")

    /// Where terminal text may go: anywhere, a terminal included.
    static let details = "--format sixel and --format symbols print terminal text (escape sequences), which may go to a\n"
        + "terminal; symbols are fitted into --cells, sixel is the picture at its pixel size.\n" + SymbolOptions.details

    /// True when the command's `--format` is a terminal text format (allowed on a terminal stdout).
    static func asksForTerminalText(_ inv: Invocation) -> Bool {
        inv.value("--format").flatMap { ImageFormat(optionName: $0) }?.isTerminalText ?? false
    }

    /// `--cells COLSxROWS`, checked, with the `--symbols` class (or its default); required for symbols.
    static func cells(_ inv: Invocation, for format: ImageFormat) throws(CLIError) -> TerminalCells? {
        try SymbolOptions.check(inv, for: format)
        guard let raw = inv.value("--cells") else {
            if format == .symbols { throw .usage("--format symbols needs --cells COLSxROWS (e.g. --cells 80x24)") }
            return nil
        }
        let parts = raw.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              TerminalCells.range.contains(columns), TerminalCells.range.contains(rows) else {
            throw .usage("--cells must be COLSxROWS with each side 1…1000 (e.g. 80x24), not '\(raw)'")
        }
        // The class is sent only with symbols: other formats ignore cells and need no class.
        let symbols = format == .symbols ? try SymbolOptions.symbols(inv, environment: PickEnvironment.current()) : .block
        return TerminalCells(columns: columns, rows: rows, symbols: SymbolOptions.asked(symbols))
    }

    /// The bytes to write: terminal text ends with a newline so a shell prompt starts on its own line.
    static func outputBytes(_ img: EncodedImage) -> [UInt8] {
        img.format.isTerminalText ? img.data + [0x0A] : img.data
    }
}
