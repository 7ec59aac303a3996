/// A man page in roff (the `man` macros), built from our own tables, so `pickerctl(1)` and
/// `pickerd(1)` say what `--help` says. Text is escaped: a line can never start a request, and a
/// backslash or a dash prints as itself.
public struct ManPage {
    private var lines: [String]

    /// The page's header: `NAME(section)`, a one-line description, and the NAME section.
    public init(name: String, section: Int, version: String, oneLine: String) {
        lines = [
            ".TH \(Self.quotedArgument(name.uppercased())) \(section) \"\" \(Self.quotedArgument(version)) \"User Commands\"",
            ".SH NAME",
            Self.escaped("\(name) - \(oneLine)"),
        ]
    }

    /// A section heading (`.SH`).
    public mutating func section(_ title: String) {
        lines.append(".SH " + Self.quotedArgument(title.uppercased()))
    }

    /// A subsection heading (`.SS`).
    public mutating func subsection(_ title: String) {
        lines.append(".SS " + Self.quotedArgument(title))
    }

    /// Running text; its line breaks are kept as breaks.
    public mutating func paragraph(_ text: String) {
        lines.append(".PP")
        lines.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { i, line in
            i == 0 ? [Self.escaped(String(line))] : [".br", Self.escaped(String(line))]
        })
    }

    /// A tagged item (`.TP`): the tag in bold, then its text indented.
    public mutating func item(_ tag: String, _ text: String) {
        lines.append(".TP")
        lines.append("\\fB" + Self.escaped(tag) + "\\fR")
        lines.append(contentsOf: text.split(separator: "\n").map { Self.escaped(String($0)) })
    }

    /// Lines shown as they are (`.nf` … `.fi`), e.g. examples.
    public mutating func example(_ text: String) {
        lines.append(".PP")
        lines.append(".nf")
        lines.append(".RS 4")
        lines.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map { Self.escaped(String($0)) })
        lines.append(".RE")
        lines.append(".fi")
    }

    /// The page's roff source.
    public var roff: String { lines.joined(separator: "\n") + "\n" }

    /// Text safe on a roff text line: `\` as `\e`, `-` as `\-` (a real minus, so options can be
    /// searched and copied), and a leading `.` or `'` guarded with `\&` so it is not a request.
    public static func escaped(_ text: String) -> String {
        var out = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// A macro argument in double quotes (a `"` inside is written `""`).
    private static func quotedArgument(_ text: String) -> String {
        "\"" + escaped(text).replacing("\"", with: "\"\"") + "\""
    }
}
