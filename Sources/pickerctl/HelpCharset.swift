#if canImport(Glibc)
import Glibc
#endif

/// Help text in the locale's character set: as written in a UTF-8 locale; in any other, pick's
/// arrows, marks and "…" as their ASCII (`PickGlyphs`, the rule pick draws with) and any other
/// non-ASCII character as `?`, so `pickerctl pick --help` in the C locale shows no "â" garbage.
enum HelpCharset {
    static func text(_ help: String, environment: [String: String] = localeEnvironment()) -> String {
        let glyphs = PickGlyphs.forLocale(environment)
        guard glyphs == .ascii else { return help }
        return help.split(separator: "\n", omittingEmptySubsequences: false)
            .map { keepingColumns(String($0), glyphs.onScreen(glyphs.message(String($0)))) }
            .joined(separator: "\n")
    }

    /// The locale variables, the only ones this needs.
    static func localeEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(key) { env[key] = String(cString: value) }
        }
        return env
    }

    /// `ascii` with the description column where `line` had it: glyphs that became wider ("→" is
    /// "->") take their extra columns from the first gap of spaces after the first of them, as long as
    /// one space is left.
    static func keepingColumns(_ line: String, _ ascii: String) -> String {
        let extra = ascii.count - TerminalColumns.width(of: line)
        guard extra > 0, let first = line.firstIndex(where: { !$0.isASCII }) else { return ascii }
        var chars = Array(ascii)
        var run = 0
        for i in line.distance(from: line.startIndex, to: first)..<chars.count {
            run = chars[i] == " " ? run + 1 : 0
            if run == extra + 1 {
                chars.removeSubrange((i - extra + 1)...i)
                break
            }
        }
        return String(chars)
    }
}
