#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

// Thin client: parse arguments against the command table, speak the protocol, print.

/// The whole command table, in the order `--help` lists it.
let allCommands = daemonCommands + sessionCommands + navigationCommands + [getImageCommand, infoCommand] + libraryCommands
    + photosCommands + selectionCommands + finishCommands + choiceCommands + [thumbnailsCommand, previewCommand] + integrationCommands + [pickCommand] + portalCommands + completionCommands

let pickerctlVersion = Release.version

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
        switch try ArgumentParser.parse(Array(CommandLine.arguments.dropFirst()), commands: allCommands + [hiddenCompleteCommand, hiddenManCommand],
                                        environment: neededEnvironment()) {
        case .help(let command):
            print(HelpCharset.text(command.map(Help.command) ?? Help.overview(allCommands)), terminator: "")
            return ExitCode.ok.rawValue
        case .missingCommand:
            Output.usage(HelpCharset.text(Help.overview(allCommands)))
            return ExitCode.usage.rawValue
        case .version:
            print("pickerctl \(pickerctlVersion)")
            return ExitCode.ok.rawValue
        case let .run(command, invocation):
            if command.binaryOutput {
                if !invocation.json {
                    try Output.checkBinaryDestination(invocation)
                } else if !command.jsonReplacesBinary && invocation.outputPath == nil {
                    throw CLIError.usage("--json needs -o FILE for the image itself")
                }
            }
            if let path = invocation.outputPath, command.writesText(json: invocation.json) {
                try TextOutputFile.redirect(to: path)
            }
            try command.run(invocation)
            try TextOutputFile.commit()
            return ExitCode.ok.rawValue
        }
    } catch {
        // A failed command leaves -o FILE as it was.
        TextOutputFile.abandon()
        Output.error(error.message)
        return error.exitCode.rawValue
    }
}

signal(SIGPIPE, SIG_IGN)
exit(runPickerctl())
