import PickerProtocol

/// `--symbols block|sextant|ascii`: the Unicode symbols a `symbols` picture is drawn with, and the
/// default when it is not given (the same for `get-image`, `preview`, `thumbnails` and `pick`).
enum SymbolOptions {
    static let names = SymbolClass.allCases.map(\.optionName)

    static let option = OptionSpec(
        name: "--symbols", valueName: names.joined(separator: "|"),
        help: "symbols to draw --format symbols with (default: ascii when the locale is not UTF-8, "
            + "sextant in kitty and foot, else block)",
        completion: .words(names))

    /// How the default is chosen, for `--help` and the man page.
    static let details = "--symbols block uses block elements only (every font has them), sextant adds the finer\n"
        + "sextants of Unicode 13 (few fonts have them), ascii uses printable ASCII only."

    /// `--symbols` when given, else `defaultClass(environment)`.
    static func symbols(_ inv: Invocation, environment: [String: String]) throws(CLIError) -> SymbolClass {
        guard let raw = inv.value("--symbols") else { return defaultClass(environment) }
        guard let symbols = SymbolClass(optionName: raw) else {
            throw .usage("--symbols must be \(names.joined(separator: ", ")), not '\(raw)'")
        }
        return symbols
    }

    /// `ascii` when the locale's character set is not UTF-8 (a terminal there shows UTF-8 as
    /// garbage); `sextant` in terminals that draw sextants themselves whatever the font (kitty,
    /// foot); else `block`, which every font shows.
    static func defaultClass(_ environment: [String: String]) -> SymbolClass {
        guard localeIsUTF8(environment) else { return .ascii }
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] == nil, term == "xterm-kitty" || term == "foot" || term.hasPrefix("foot-") { return .sextant }
        return .block
    }

    /// Whether the locale's character set is UTF-8: the first non-empty of LC_ALL, LC_CTYPE and
    /// LANG names it (POSIX order); none set is the C locale, ASCII.
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let name = locale.lowercased()
        return name.contains("utf-8") || name.contains("utf8")
    }

    /// The class as the request carries it: `block` is the daemon's default and is not sent, so a
    /// daemon from before symbol classes (which refuses the extension area) still answers, in sextants.
    static func asked(_ symbols: SymbolClass) -> SymbolClass? {
        symbols == .block ? nil : symbols
    }

    /// Usage error when `--symbols` is given for a format other than symbols.
    static func check(_ inv: Invocation, for format: ImageFormat) throws(CLIError) {
        if inv.value("--symbols") != nil, format != .symbols {
            throw .usage("--symbols goes with --format symbols, not --format \(format.optionName)")
        }
    }
}
