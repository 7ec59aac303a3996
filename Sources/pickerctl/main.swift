#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

// Thin client: parse arguments against the command table, speak the protocol, print.

func runPickerctl() -> Int32 {
    do {
        switch try ArgumentParser.parse(Array(CommandLine.arguments.dropFirst()), commands: commands,
                                        environment: Environment.current) {
        case .help(let command):
            print(command.map(Help.command) ?? Help.overview(commands), terminator: "")
            return ExitCode.ok.rawValue
        case .version:
            print("pickerctl 0.1.0")
            return ExitCode.ok.rawValue
        case let .run(command, invocation):
            if command.binaryOutput { try Output.checkBinaryDestination(invocation) }
            try command.run(invocation)
            return ExitCode.ok.rawValue
        }
    } catch {
        Output.error(error.message)
        return error.exitCode.rawValue
    }
}

signal(SIGPIPE, SIG_IGN)
exit(runPickerctl())
