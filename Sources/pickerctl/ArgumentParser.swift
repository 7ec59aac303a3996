import PickerSystem

/// What the command line asked for.
enum ParsedCommandLine {
    case help(CommandSpec?)
    case version
    /// No command at all: the overview goes to stderr and the exit code is 2.
    case missingCommand
    case run(CommandSpec, Invocation)
}

/// Parses argv against the command table: global options anywhere, `--opt value` and
/// `--opt=value`, `--` ends options. All validation happens here, before any socket is touched.
enum ArgumentParser {
    static func parse(_ argv: [String], commands: [CommandSpec], environment: [String: String]) throws(CLIError) -> ParsedCommandLine {
        var words: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var wantsHelp = false
        var command: CommandSpec? = nil
        var optionsEnded = false
        var i = 0

        func resolveCommand() {
            guard command == nil else { return }
            // Longest match first ("session new" before "session").
            command = commands.filter { words.starts(with: $0.words) || $0.words == words }
                .max { $0.words.count < $1.words.count }
        }

        while i < argv.count {
            let arg = argv[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                if command == nil {
                    words.append(arg)
                    let candidates = commands.filter { $0.words.starts(with: words) }
                    if candidates.isEmpty {
                        words.removeLast()
                        resolveCommand()
                        guard command != nil else {
                            throw .usage("unknown command '\((words + [arg]).joined(separator: " "))'; see 'pickerctl --help'")
                        }
                        positionals.append(arg)
                    } else if candidates.count == 1 && candidates[0].words == words {
                        command = candidates[0]
                    }
                } else {
                    positionals.append(arg)
                }
                continue
            }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            if arg == "-h" || arg == "--help" {
                wantsHelp = true
                continue
            }
            if arg == "--version" && command == nil && words.isEmpty {
                return .version
            }
            var name = arg
            var inlineValue: String? = nil
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            resolveCommand()
            guard let spec = globalOptions.first(where: { $0.name == name }) ?? command?.option(named: name) else {
                if let command {
                    throw .usage("unknown option '\(name)' for '\(command.name)'; see 'pickerctl \(command.name) --help'")
                }
                throw .usage("unknown option '\(name)'; see 'pickerctl --help'")
            }
            if spec.valueName != nil {
                if let v = inlineValue {
                    values[name] = v
                } else {
                    guard i < argv.count else { throw .usage("option \(name) needs a value (\(spec.valueName ?? "VALUE"))") }
                    values[name] = argv[i]
                    i += 1
                }
            } else {
                guard inlineValue == nil else { throw .usage("option \(name) takes no value") }
                flags.insert(name)
            }
        }
        resolveCommand()
        if wantsHelp { return .help(command) }
        guard let command else {
            if words.isEmpty { return .missingCommand }
            let group = commands.filter { $0.words.starts(with: words) }
            guard !group.isEmpty else {
                throw .usage("unknown command '\(words.joined(separator: " "))'; see 'pickerctl --help'")
            }
            let subcommands = group.map { $0.words.dropFirst(words.count).joined(separator: " ") }
            throw .usage("'\(words.joined(separator: " "))' needs a subcommand: \(Help.alternatives(subcommands)); see 'pickerctl --help'")
        }
        let required = command.arguments.filter { !$0.optional }.count
        guard positionals.count >= required else {
            throw .usage("'\(command.name)' needs \(command.arguments.map(\.name).joined(separator: " ")); usage: \(command.usageLine)")
        }
        guard positionals.count <= command.arguments.count else {
            throw .usage("unexpected argument '\(positionals[command.arguments.count])' for '\(command.name)'")
        }
        let session = values["--session"] ?? environment["PICKER_SESSION"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        if values["--socket"] == "" { throw .usage("empty socket path: --socket needs a PATH") }
        let socket = values["--socket"] ?? DefaultSocketPath.resolve(environment: environment)
        // `-o -` is stdout, as for curl and tar; it once wrote a file named "-" into the working folder.
        let invocation = Invocation(command: command, positionals: positionals, values: values, flags: flags,
                                    socketPath: socket, session: session, json: flags.contains("--json"),
                                    outputPath: values["-o"] == "-" ? nil : values["-o"])
        return .run(command, invocation)
    }
}
