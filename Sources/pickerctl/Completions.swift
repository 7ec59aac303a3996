/// Shell completion scripts generated from the command table, so they never fall behind it.
/// Album and photo names are completed live through `pickerctl __complete albums|photos`.
///
/// Names come from files anyone with write access to the library can create, so the scripts treat
/// them as data only: no script hands a name to anything that expands or evaluates words
/// (`compgen -W`, `eval`, a zsh `_arguments` action, a fish `-a` string).
enum Completions {
    /// The shells `pickerctl completions` writes a script for.
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String, commands: [CommandSpec]) -> String? {
        switch shell {
        case "bash": return bash(commands)
        case "zsh": return zsh(commands)
        case "fish": return fish(commands)
        default: return nil
        }
    }

    /// The live kind (`albums`, `photos`, `sessions`) a command's first argument completes from, if any.
    static func liveNames(_ command: CommandSpec) -> String? {
        if case .live(let kind)? = command.arguments.first?.completion { return kind }
        return nil
    }

    /// The fixed words a command's first argument completes from (empty if none).
    static func argumentWords(_ command: CommandSpec) -> [String] {
        if case .words(let words)? = command.arguments.first?.completion { return words }
        return []
    }

    /// Every option that takes a value, once by name (the first declaration wins), with what its value completes from.
    static func valueCompletions(_ commands: [CommandSpec]) -> [(name: String, completion: ValueCompletion)] {
        var seen: Set<String> = []
        var out: [(name: String, completion: ValueCompletion)] = []
        for o in globalOptions + commands.flatMap(\.options) where o.valueName != nil && !seen.contains(o.name) {
            seen.insert(o.name)
            out.append((o.name, o.completion))
        }
        return out
    }

    /// Prints the completable names one per line, exactly as they are: the scripts take each line as
    /// one name, so this output is not escaped for a terminal like other text output.
    static func printNames(_ names: [String]) {
        for name in completable(names) { print(name) }
    }

    /// The names `__complete` prints, one per line. A name with a control character (C0, DEL, C1) is
    /// left out: it could not be typed on a command line anyway, a newline would split it into two
    /// fake candidates, and an escape sequence would reach the terminal through the candidate list.
    static func completable(_ names: [String]) -> [String] {
        names.filter { name in !name.unicodeScalars.contains(where: isControl) }
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }

    /// Options (global or of any command) that take a value, so the scripts can skip the value.
    static func valueOptions(_ commands: [CommandSpec]) -> [String] {
        let all = (commands.flatMap(\.options) + globalOptions).filter { $0.valueName != nil }.map(\.name)
        return Array(Set(all)).sorted()
    }

    static var globalFlags: String { globalOptions.map(\.name).joined(separator: " ") }
}
