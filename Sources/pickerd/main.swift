#if canImport(Glibc)
import Glibc
#endif
import PickerDaemon
import PickerSystem

// Thin entry point: parse the command line, build the configuration, run the daemon.

let usage = """
    Usage: pickerd [--library DIR] [--socket PATH] [--cache-mb N] [--state-dir DIR] [--max-megapixels N]

    The pickerd photo-picker daemon. Indexes a photo library and serves picker sessions
    to clients (pickerctl, editor plugins, scripts) over a Unix socket. Runs in the
    foreground and logs to stderr; stop it with Ctrl-C or SIGTERM.

    Options:
      --library DIR        photo library root (default: $PICKER_LIBRARY, the XDG pictures folder, ~/Pictures)
      --socket PATH        socket to listen on (default: $PICKER_SOCKET, $XDG_RUNTIME_DIR/pickerd.sock,
                           /tmp/pickerd-$UID/pickerd.sock)
      --cache-mb N         memory for rendered images, in MiB (default 256)
      --state-dir DIR      where sessions are saved (default: $XDG_STATE_HOME/pickerd, ~/.local/state/pickerd)
      --max-megapixels N   refuse images declaring more pixels than this (default 200)
      --version            print the version
      -h, --help           show this help

    Environment: PICKERD_LOG_LEVEL=debug|info|error|fault (default info).

    """

func fail(_ message: String) -> Never {
    let line = "pickerd: \(message)\nTry 'pickerd --help'.\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

let env = Environment.current
var library: String? = nil
var socket: String? = nil
var cacheMB = 256
var stateDir: String? = nil
var maxMP = 200

var args = Array(CommandLine.arguments.dropFirst())
var i = 0
func value(_ name: String) -> String {
    if let eq = args[i].firstIndex(of: "=") { return String(args[i][args[i].index(after: eq)...]) }
    i += 1
    guard i < args.count else { fail("\(name) needs a value") }
    return args[i]
}
func intValue(_ name: String, _ range: ClosedRange<Int>) -> Int {
    let raw = value(name)
    guard let n = Int(raw), range.contains(n) else { fail("\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound), not '\(raw)'") }
    return n
}
while i < args.count {
    let a = args[i]
    let key = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
    switch key {
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print("pickerd \(Daemon.version)")
        exit(0)
    case "--library": library = value(key)
    case "--socket": socket = value(key)
    case "--cache-mb": cacheMB = intValue(key, 0...65536)
    case "--state-dir": stateDir = value(key)
    case "--max-megapixels": maxMP = intValue(key, 1...10000)
    default: fail("unknown option '\(a)'")
    }
    i += 1
}

let root = library ?? DaemonConfiguration.defaultLibrary(env)
let config = DaemonConfiguration(
    libraryRoot: root,
    socketPath: socket ?? DefaultSocketPath.resolve(environment: env),
    cacheMB: cacheMB,
    stateDirectory: stateDir ?? DaemonConfiguration.defaultStateDirectory(env),
    maxMegapixels: maxMP)
exit(Daemon.run(config))
