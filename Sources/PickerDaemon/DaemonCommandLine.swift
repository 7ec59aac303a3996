import PickerEngine
import PickerSystem

/// pickerd's command line: `--opt value` and `--opt=value`.
public enum DaemonCommandLine {
    public enum Parsed: Equatable {
        case run(DaemonConfiguration)
        case help
        case version
        /// `--man` (not in the help): print pickerd(1) in roff.
        case man
        /// `--decoder-worker` (not in the help): run as a sandboxed decoder worker of a daemon
        /// (`DecoderWorker`; the daemon starts these itself, with their socket as descriptor 3).
        case decoderWorker
    }

    public static let usage = """
        Usage: pickerd [--library DIR] [--socket PATH] [--cache-mb N] [--state-dir DIR] [--max-megapixels N]
                      [--memory-mb N] [--workers N] [--idle-timeout SECONDS] [--no-prefetch] [--no-shared-thumbnails]
                      [--show-raw-pairs] [--ready-fd N] [--decode-seconds N] [--decode-in-process]

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
          --memory-mb N        memory for decoding and rendering, shared by all image requests at once, in MiB
                               (default 1024); requests wait for room, and one that alone needs more is refused
                               (image_too_large). Photo files over 100 MiB are not read.
          --workers N          worker threads for decoding and requests (default: the number of cores);
                               one more thread answers cheap session requests, so they never wait for a decode
          --idle-timeout SECONDS
                               close a connection that has no subscription and nothing in flight after this many
                               seconds without a request (default 60; 0: never), so one client cannot hold all
                               256 connections; clients reconnect when they need the daemon again
          --decode-seconds N   a decode's CPU time (default 10, plus 0.25 s per megapixel): a decoder that
                               uses more is killed and the photo reported broken
          --decode-in-process  decode in the daemon's own threads, not in sandboxed decoder processes
                               (for debugging; the default runs every decoder in a sandboxed worker process)
          --no-prefetch        do not render the photos next to a session's current one ahead of time
          --no-shared-thumbnails
                               do not read or write the freedesktop thumbnail cache ($XDG_CACHE_HOME/thumbnails)
          --show-raw-pairs     list a camera's RAW+JPEG pair (same folder, same name before the extension) as two
                               photos; by default the pair is one photo, the JPEG, and photo-info names the RAW
          --ready-fd N         write `listening` to descriptor N once the socket accepts and `scanned` once the
                               first library scan has ended, then close it (for a supervisor or a script)
          --version            print the version
          -h, --help           show this help

        Environment: PICKERD_LOG_LEVEL=debug|info|error|fault (default info).

        """

    /// - Throws: a message for a usage error (exit code 2).
    public static func parse(_ args: [String], environment env: [String: String]) throws(UsageError) -> Parsed {
        var library: String? = nil
        var socket: String? = nil
        var cacheMB = 256
        var stateDir: String? = nil
        var maxMP = 200
        var memoryMB = 1024
        var sharedThumbnails = true
        var workers = WorkerPool.defaultWorkers
        var prefetch = true
        var showsRawPairs = false
        var readyFD: Int32? = nil
        var idleTimeout = 60
        var decodeInProcess = false
        var decodeSeconds = 10
        var i = 0

        func value(_ name: String) throws(UsageError) -> String {
            if let eq = args[i].firstIndex(of: "=") { return String(args[i][args[i].index(after: eq)...]) }
            i += 1
            guard i < args.count else { throw UsageError(message: "\(name) needs a value") }
            return args[i]
        }
        func intValue(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let raw = try value(name)
            guard let n = Int(raw), range.contains(n) else {
                throw UsageError(message: "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound), not '\(raw)'")
            }
            return n
        }

        while i < args.count {
            let a = args[i]
            let key = a.hasPrefix("--") ? (a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a) : a
            switch key {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--man": return .man
            case "--decoder-worker" where args.count == 1: return .decoderWorker
            case "--decode-in-process": decodeInProcess = true
            case "--decode-seconds": decodeSeconds = try intValue(key, 1...3600)
            case "--library": library = try value(key)
            case "--socket": socket = try value(key)
            case "--cache-mb": cacheMB = try intValue(key, 0...65536)
            case "--state-dir": stateDir = try value(key)
            case "--max-megapixels": maxMP = try intValue(key, 1...10000)
            case "--memory-mb": memoryMB = try intValue(key, 16...1_048_576)
            case "--no-shared-thumbnails": sharedThumbnails = false
            case "--workers": workers = try intValue(key, 1...256)
            case "--no-prefetch": prefetch = false
            case "--show-raw-pairs": showsRawPairs = true
            case "--ready-fd": readyFD = Int32(try intValue(key, 0...65535))
            case "--idle-timeout": idleTimeout = try intValue(key, 0...86400)
            default: throw UsageError(message: "unknown option '\(a)'")
            }
            i += 1
        }
        var config = DaemonConfiguration(
            libraryRoot: library ?? DaemonConfiguration.defaultLibrary(env),
            socketPath: socket ?? DefaultSocketPath.resolve(environment: env),
            cacheMB: cacheMB,
            stateDirectory: stateDir ?? DaemonConfiguration.defaultStateDirectory(env),
            maxMegapixels: maxMP,
            thumbnailCacheHome: sharedThumbnails ? DaemonConfiguration.defaultCacheHome(env) : nil)
        config.memoryMB = memoryMB
        config.workers = workers
        config.prefetch = prefetch
        config.showsRawPairs = showsRawPairs
        config.readyFD = readyFD
        config.idleTimeoutSeconds = idleTimeout
        config.decodeInProcess = decodeInProcess
        config.decodeSeconds = decodeSeconds
        config.indexDirectory = DaemonConfiguration.defaultCacheHome(env).map { $0 + "/pickerd" }
        return .run(config)
    }

    public struct UsageError: Error, Equatable {
        public var message: String
    }
}
