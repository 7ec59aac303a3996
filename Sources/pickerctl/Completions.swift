/// Shell completion scripts generated from the command table, so they never fall behind it.
/// Album and photo names are completed live through `pickerctl __complete albums|photos`.
///
/// Names come from files anyone with write access to the library can create, so the scripts treat
/// them as data only: no script hands a name to anything that expands or evaluates words
/// (`compgen -W`, `eval`, a zsh `_arguments` action, a fish `-a` string).
enum Completions {
    static func script(for shell: String, commands: [CommandSpec]) -> String? {
        switch shell {
        case "bash": return bash(commands)
        case "zsh": return zsh(commands)
        case "fish": return fish(commands)
        default: return nil
        }
    }

    /// Commands whose NAME argument is an album or a photo of the selected album.
    static func liveNames(_ command: CommandSpec) -> String? {
        switch command.name {
        case "select-album": return "albums"
        case "select-photo", "toggle": return "photos"
        default: return nil
        }
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
