#if canImport(Glibc)
import Glibc
#endif
import PickerPortal

// Thin entry point: parse the command line, build the configuration, serve the portal.

func runPortal() -> Int32 {
    let action: PortalCommandLine.Action
    do {
        action = try PortalCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        let line = "pickerd-portal: \(error.message)\nTry 'pickerd-portal --help'.\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        return 2
    }
    switch action {
    case .help:
        print(PortalCommandLine.usage, terminator: "")
        return 0
    case .man:
        print(PortalManPage.roff(version: PortalCommandLine.version), terminator: "")
        return 0
    case .version:
        print("pickerd-portal \(PortalCommandLine.version)")
        return 0
    case let .run(socket, replace):
        do {
            return try PortalService(PortalCommandLine.configuration(socket: socket, replace: replace)).run()
        } catch {
            let line = "pickerd-portal: \(error)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            return 1
        }
    }
}

exit(runPortal())
