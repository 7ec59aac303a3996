/// How pickerd-portal opens a window for `pick`: the words put before the command. From
/// `PICKERD_PORTAL_TERMINAL`, else `terminal =` in portal.conf, else `$TERMINAL`, else the first
/// found of the terminals below (each with the words that make it run a command).
public enum TerminalCommand {
    /// Known terminals, in the order tried, with what they need before the command's words.
    static let known: [(name: String, prefix: [String])] = [
        ("foot", []), ("kitty", []), ("alacritty", ["-e"]), ("wezterm", ["start", "--"]),
        ("gnome-terminal", ["--"]), ("konsole", ["-e"]), ("x-terminal-emulator", ["-e"]), ("xterm", ["-e"]),
    ]

    /// The words of the terminal command, or nil when none is configured or found; no words for
    /// `none` (open nothing: the session waits for a client to serve it).
    /// - Parameters:
    ///   - configured: `PICKERD_PORTAL_TERMINAL` or portal.conf's `terminal` (the first given wins).
    ///   - find: the executable's path on PATH, or nil.
    public static func resolve(configured: String?, terminalVariable: String?, find: (String) -> String?) -> [String]? {
        if configured == "none" { return [] }
        if let configured, let words = try? ShellWords.split(configured), !words.isEmpty { return words }
        if let variable = terminalVariable, let words = try? ShellWords.split(variable), let first = words.first {
            let base = first.split(separator: "/").last.map(String.init) ?? first
            return words + (known.first { $0.name == base }?.prefix ?? ["-e"])
        }
        for terminal in known {
            if let path = find(terminal.name) { return [path] + terminal.prefix }
        }
        return nil
    }
}

/// Splits a configuration value into words as a shell would, for quotes only: 'single', "double"
/// (with \" and \\), and backslash outside quotes. No expansion of any kind.
public enum ShellWords {
    public struct UnclosedQuote: Error, Equatable {}

    public static func split(_ text: String) throws(UnclosedQuote) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped {
                current.append(c); escaped = false; inWord = true
            } else if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c; inWord = true
            } else if c == "\\" {
                escaped = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(c); inWord = true
            }
        }
        if quote != nil || escaped { throw UnclosedQuote() }
        if inWord { words.append(current) }
        return words
    }
}
