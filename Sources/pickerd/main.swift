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
            // Sessions are written and the socket is gone, but render threads may still be inside
            // a C library: exit()'s atexit handlers and static destructors (libheif's plugin table,
            // OpenSSL's context) would be freed under them and turn a clean stop into a SIGSEGV.
            let code = Daemon.run(config)
            fflush(nil)
            _exit(code)
        }
    } catch {
        let line = "pickerd: \(error.message)\nTry 'pickerd --help'.\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        return 2
    }
}

exit(runPickerd())
