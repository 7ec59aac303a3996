#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

// Thin client: parse arguments against the command table, speak the protocol, print.

/// The whole command table, in the order `--help` lists it.
let allCommands = commands + libraryCommands + photosCommands + galleryCommands + integrationCommands + [pickCommand] + completionCommands

/// Only the variables pickerctl reads: building the whole environment costs start-up time.
func neededEnvironment() -> [String: String] {
    var env: [String: String] = [:]
    for key in ["PICKER_SOCKET", "PICKER_SESSION", "XDG_RUNTIME_DIR"] {
        if let value = getenv(key) { env[key] = String(cString: value) }
    }
    return env
}

func runPickerctl() -> Int32 {
    do throws(CLIError) {
        switch try ArgumentParser.parse(Array(CommandLine.arguments.dropFirst()), commands: allCommands + [hiddenCompleteCommand],
                                        environment: neededEnvironment()) {
        case .help(let command):
            print(command.map(Help.command) ?? Help.overview(allCommands), terminator: "")
            return ExitCode.ok.rawValue
        case .version:
            print("pickerctl 0.1.0")
            return ExitCode.ok.rawValue
        case let .run(command, invocation):
            if command.binaryOutput {
                if !invocation.json {
                    try Output.checkBinaryDestination(invocation)
                } else if !command.jsonReplacesBinary && invocation.outputPath == nil {
                    throw CLIError.usage("--json needs -o FILE for the image itself")
                }
            }
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
