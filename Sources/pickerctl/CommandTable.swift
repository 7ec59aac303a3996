/// What a shell offers for an option's value or an argument. The completion scripts are generated
/// from these, so a choice added to the table is completed without touching the scripts.
enum ValueCompletion: Sendable, Equatable {
    /// Free text: nothing is offered.
    case none
    /// File names.
    case files
    /// A fixed list of our own words.
    case words([String])
    /// Names the daemon knows, from `pickerctl __complete KIND` (albums, photos, sessions).
    case live(String)
}

/// One option a command accepts. `valueName` nil means a flag.
struct OptionSpec: Sendable {
    var name: String
    var valueName: String?
    var help: String
    var completion: ValueCompletion = .none
}

/// One positional argument.
struct ArgumentSpec: Sendable {
    var name: String
    var optional: Bool
    var help: String
    var completion: ValueCompletion = .none

    /// The same argument, completed with `completion`.
    func completing(_ completion: ValueCompletion) -> ArgumentSpec {
        var copy = self
        copy.completion = completion
        return copy
    }
}

/// A command: its words, help, options and what runs it. The one table drives
/// parsing, `--help`, validation and (later) completions.
struct CommandSpec: Sendable {
    var words: [String]
    var summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    /// Writes binary output: refused to a terminal unless -o is given.
    var binaryOutput = false
    /// With --json, prints a description instead of the binary (else --json needs -o FILE for the binary).
    var jsonReplacesBinary = false
    var details: String = ""
    var run: @Sendable (Invocation) throws(CLIError) -> Void

    var name: String { words.joined(separator: " ") }

    var usageLine: String {
        var parts = ["pickerctl [global options]", name]
        for a in arguments { parts.append(a.optional ? "[\(a.name)]" : a.name) }
        for o in options { parts.append(o.valueName.map { "[\(o.name) \($0)]" } ?? "[\(o.name)]") }
        return parts.joined(separator: " ")
    }

    /// Whether stdout carries text (not image bytes), which `-o FILE` then receives instead.
    func writesText(json: Bool) -> Bool { !binaryOutput || (json && jsonReplacesBinary) }

    func option(named n: String) -> OptionSpec? { options.first { $0.name == n } }
}

/// Options every command accepts.
let globalOptions: [OptionSpec] = [
    OptionSpec(name: "--socket", valueName: "PATH", help: "daemon socket (default: $PICKER_SOCKET, $XDG_RUNTIME_DIR/pickerd.sock, /tmp/pickerd-$UID/pickerd.sock)",
               completion: .files),
    OptionSpec(name: "--session", valueName: "NAME", help: "session to use (default: $PICKER_SESSION, else 'default')",
               completion: .live("sessions")),
    OptionSpec(name: "--json", valueName: nil, help: "machine-readable output on stdout"),
    OptionSpec(name: "-o", valueName: "FILE", help: "write the output (image or text) to FILE instead of stdout (- is stdout)", completion: .files),
    OptionSpec(name: "--help", valueName: nil, help: "show help (also -h)"),
]
