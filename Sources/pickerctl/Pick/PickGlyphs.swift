/// The characters pick draws its own frame, marks and key names with: Unicode in a UTF-8 locale,
/// ASCII in any other (a terminal in the C or a Latin-1 locale shows UTF-8 as "â" garbage). Chosen
/// once at start by the rule the symbols use (`SymbolOptions.localeIsUTF8`) and carried in the
/// layout. Names, titles and EXIF text are the library's: in the ASCII set their non-ASCII
/// characters reach the screen as `?` (`onScreen`), as `ls` shows them in the C locale.
///
/// Every glyph that a layout counts on is one column in both sets (the bar, the marks, the caret);
/// `more` and the arrows appear only in text that is cut to fit anyway.
struct PickGlyphs: Equatable, Sendable {
    /// Between the panes.
    var bar: String
    /// Before a pick number.
    var picked: String
    /// Before the open album.
    var open: String
    /// Before a photo pickerd could not decode.
    var broken: String
    /// At the end of a text cut to fit.
    var more: String
    /// The filter's cursor.
    var caret: String
    var up: String
    var down: String
    var left: String
    var right: String
    /// Between two arrows named together ("↑↓", "^ v").
    var pairGap: String

    static let unicode = PickGlyphs(bar: "│", picked: "✓", open: "▸", broken: "✗", more: "…", caret: "▏",
                                    up: "↑", down: "↓", left: "←", right: "→", pairGap: "")
    static let ascii = PickGlyphs(bar: "|", picked: "*", open: ">", broken: "x", more: "...", caret: "_",
                                  up: "^", down: "v", left: "<-", right: "->", pairGap: " ")

    /// Unicode when the locale (LC_ALL, LC_CTYPE, LANG) is UTF-8, else ASCII.
    static func forLocale(_ environment: [String: String]) -> PickGlyphs {
        SymbolOptions.localeIsUTF8(environment) ? .unicode : .ascii
    }

    /// Two arrows named together: "↑↓", "←→" (ASCII: "^ v", "<- ->").
    func pair(_ a: String, _ b: String) -> String { a + pairGap + b }

    /// A message of pickerd's (not a name) in this set: its "…" (as in "out of range 1…100") and the
    /// other Unicode glyphs of the table as their ASCII, when ASCII.
    func message(_ text: String) -> String {
        guard self == .ascii, text.unicodeScalars.contains(where: { !$0.isASCII }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if let ascii = Self.asciiOf[scalar] { out += ascii } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `text` as this set's terminal shows it: as it is in Unicode; in ASCII each non-ASCII character
    /// becomes one `?` a column it takes (a wide one two, a combining mark none). A name's UTF-8 bytes in
    /// a Latin-1 xterm take a column a byte and its 0x80–0x9F bytes are C1 controls (0x8D moves the
    /// cursor up a row): printed as they are, they shift the borders and can drive the terminal.
    func onScreen(_ text: String) -> String {
        guard self == .ascii, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.unicodeScalars.append(scalar) } else { out += String(repeating: "?", count: TerminalColumns.width(of: scalar)) }
        }
        return out
    }

    private var all: [String] { [bar, picked, open, broken, more, caret, up, down, left, right] }

    /// Each Unicode glyph (one code point each) to its ASCII.
    private static let asciiOf: [Unicode.Scalar: String] = Dictionary(
        zip(unicode.all.compactMap(\.unicodeScalars.first), ascii.all), uniquingKeysWith: { first, _ in first })
}
