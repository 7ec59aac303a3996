#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol
import PickerSystem

/// A parsed command ready to run: its arguments and the global settings.
struct Invocation {
    let command: CommandSpec
    let positionals: [String]
    let values: [String: String]
    let flags: Set<String>
    let socketPath: String
    let session: String
    let json: Bool
    let outputPath: String?

    func positional(_ i: Int) -> String? { i < positionals.count ? positionals[i] : nil }
    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option within a range, or nil when absent.
    func int(_ name: String, in range: ClosedRange<Int>, unit: String = "") throws(CLIError) -> Int? {
        guard let raw = values[name] else { return nil }
        guard let n = Int(raw) else { throw .usage("\(name) needs a whole number, not '\(raw)'") }
        guard range.contains(n) else {
            throw .usage("\(name) \(n) is out of range \(range.lowerBound)…\(range.upperBound)\(unit)")
        }
        return n
    }

    /// Connects and performs the handshake.
    func connect() throws(CLIError) -> PickerConnection {
        do {
            return try PickerConnection(socketPath: socketPath, clientName: "pickerctl")
        } catch {
            throw CLIError(error)
        }
    }

    /// One request, one reply.
    func call(_ request: Request) throws(CLIError) -> Reply {
        let conn = try connect()
        do {
            return try conn.call(request)
        } catch {
            throw CLIError(error)
        }
    }

    /// "an" before a vowel ("an album"), else "a".
    private func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    /// Selector from "NAME" or "--index N".
    func selector(what: String) throws(CLIError) -> Selector {
        let index = try int("--index", in: 1...Int(Int32.max))
        switch (positional(0), index) {
        case (let name?, nil): return .name(name)
        case (nil, let i?): return .index(i)
        case (.some, .some): throw .usage("give either \(article(what)) \(what) name or --index, not both")
        case (nil, nil): throw .usage("give \(article(what)) \(what) name or --index N; usage: \(command.usageLine)")
        }
    }
}
