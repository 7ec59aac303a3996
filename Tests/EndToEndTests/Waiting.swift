import Foundation

/// A wait that ran out: what it waited for, how long, and what was seen (a log, a screen).
struct WaitTimedOut: Error, CustomStringConvertible {
    var what: String
    var seconds: Double
    var seen: String
    var description: String { "waited \(Int(seconds)) s for \(what); seen:\n\(seen.suffix(4000))" }
}

/// Polls `condition` (every `interval` µs) until it holds; throws `WaitTimedOut` naming `what` after
/// `seconds`. Each wait has its own deadline, generous for a debug build on two busy cores: it
/// bounds a hang, it is not a timing check.
func waitUntil(_ what: String, within seconds: Double, every interval: UInt32 = 25_000,
               seen: () -> String = { "" }, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try await !condition() {
        if Date() > deadline { throw WaitTimedOut(what: what, seconds: seconds, seen: seen()) }
        await pause(interval)
    }
}
