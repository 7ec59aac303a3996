#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Log levels with fixed meanings: fault = a bug in us; error = bad input or a failed
/// operation; info = state changes; debug = per-request detail with its duration.
public enum LogLevel: Int, Sendable, Comparable {
    case debug = 0, info = 1, error = 2, fault = 3

    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "error": self = .error
        case "fault": self = .fault
        default: return nil
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    var label: String {
        switch self {
        case .debug: return "debug"
        case .info: return "info"
        case .error: return "error"
        case .fault: return "FAULT"
        }
    }
}

/// Line-oriented logging to stderr (fd 2), one write(2) per line so lines never interleave.
/// The level comes from `PICKERD_LOG_LEVEL` (default info). Messages pass through `InertText`,
/// so a file name or title with a newline or ESC can neither forge a line nor drive a terminal.
public enum Log {
    /// Read once: the level is fixed for the life of the process.
    public static let level: LogLevel = LogLevel(name: Environment.current["PICKERD_LOG_LEVEL"] ?? "") ?? .info

    /// Where lines go: stderr, unless `writeLines(to:)` moved them.
    private static let descriptor = Atomic<Int32>(2)

    /// Sends the lines to `fd` from now on (the decoder worker keeps them on a copy of stderr
    /// while stderr itself, where libraries print, goes to /dev/null).
    public static func writeLines(to fd: Int32) { descriptor.store(fd, ordering: .relaxed) }

    public static func debug(_ message: @autoclosure () -> String) { emit(.debug, message) }
    public static func info(_ message: @autoclosure () -> String) { emit(.info, message) }
    public static func error(_ message: @autoclosure () -> String) { emit(.error, message) }
    public static func fault(_ message: @autoclosure () -> String) { emit(.fault, message) }

    private static func emit(_ level: LogLevel, _ message: () -> String) {
        guard level >= self.level else { return }
        let line = Array("pickerd[\(level.label)] \(InertText.escaped(message()))\n".utf8)
        // Nowhere to report a failed log write: stderr is where it would go.
        _ = try? FileDescriptorIO.writeAll(descriptor.load(ordering: .relaxed), line)
    }
}

/// Runs `body`; a failure is logged at error level with `what`, instead of a silent `try?`.
public func orLog<T>(_ what: String, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch {
        Log.error("\(what): \(error)")
        return nil
    }
}
