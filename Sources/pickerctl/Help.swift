/// `--help` text, generated from the command table.
enum Help {
    static func overview(_ commands: [CommandSpec]) -> String {
        let width = commands.map(\.name.count).max() ?? 0
        var out = """
            Usage: pickerctl [global options] COMMAND [arguments]

            Talks to the pickerd photo-picker daemon over its Unix socket.

            Commands:

            """
        for c in commands {
            out += "  " + c.name + String(repeating: " ", count: width - c.name.count) + "  " + c.summary + "\n"
        }
        out += "\nGlobal options:\n" + optionLines(globalOptions)
        out += """

            Exit codes: \(ExitCode.all.prefix(4).map { "\($0.rawValue) \($0.meaning)" }.joined(separator: ", ")),
            \(ExitCode.all.dropFirst(4).map { "\($0.rawValue) \($0.meaning)" }.joined(separator: ", ")).
            Run 'pickerctl COMMAND --help' for a command's options.

            """
        return out
    }

    static func command(_ c: CommandSpec) -> String {
        var out = "Usage: \(c.usageLine)\n\n\(c.summary)\n"
        if !c.details.isEmpty { out += "\n\(c.details)\n" }
        if !c.arguments.isEmpty {
            // Names padded to the longest, so two arguments' words line up (`set-choice ID VALUE`).
            let width = c.arguments.map(\.name.count).max() ?? 0
            out += "\nArguments:\n" + c.arguments.map { a in
                "  " + a.name + String(repeating: " ", count: width - a.name.count) + "  " + a.help
            }.joined(separator: "\n") + "\n"
        }
        if !c.options.isEmpty { out += "\nOptions:\n" + optionLines(c.options) }
        out += "\nGlobal options:\n" + optionLines(globalOptions)
        return out
    }

    /// "a, b or c".
    static func alternatives(_ words: [String]) -> String {
        guard words.count > 1, let last = words.last else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }

    private static func optionLines(_ options: [OptionSpec]) -> String {
        let labels = options.map { o in o.valueName.map { "\(o.name) \($0)" } ?? o.name }
        let width = labels.map(\.count).max() ?? 0
        return zip(labels, options).map { label, o in
            "  " + label + String(repeating: " ", count: width - label.count) + "  " + o.help + "\n"
        }.joined()
    }
}
