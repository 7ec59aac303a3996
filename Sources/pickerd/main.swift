#if canImport(Glibc)
import Glibc
#endif
import PickerDaemon
import PickerSystem

// Thin entry point: parse the command line, build the configuration, run the daemon.

func runPickerd() -> Int32 {
    do {
        switch try DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst()), environment: Environment.current) {
        case .help:
            print(DaemonCommandLine.usage, terminator: "")
            return 0
        case .man:
            print(DaemonManPage.roff(version: Daemon.version), terminator: "")
            return 0
        case .decoderWorker:
            return Daemon.runDecoderWorker()
        case .version:
            print("pickerd \(Daemon.version)")
            return 0
        case .run(let config):
            return Daemon.run(config)
        }
    } catch {
        let line = "pickerd: \(error.message)\nTry 'pickerd --help'.\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        return 2
    }
}

exit(runPickerd())
