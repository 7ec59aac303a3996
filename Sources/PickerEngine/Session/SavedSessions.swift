import Foundation
import PickerProtocol
import PickerSystem

/// `sessions.json`: what is written, and how it is read back. Reading is forgiving per entry
/// and strict per rule: an entry that does not decode, breaks a `SessionRules` rule or repeats
/// a name is dropped and logged, and the others are kept.
enum SavedSessions {
    static let fileName = "sessions.json"
    /// Far above 1024 sessions of 1000 picks each with ordinary paths; a bigger file is refused unread.
    static let maxFileBytes = 64 << 20
    static let maxSessions = 1024
    /// The file format's version, written at its end.
    static let version = 1

    private struct Written: Encodable {
        /// The generation of the `sessions.journal` whose records follow this file (`SessionJournal`).
        var journal: String?
        var version: Int
        var sessions: [Session]
    }

    private struct Read: Decodable {
        var journal: String?
        var sessions: [Entry]
    }

    /// What a file holds: its valid sessions and the journal generation it names (nil: none).
    struct Contents {
        var sessions: [String: Session]
        var journal: String?
    }

    /// One entry: a session, or why it did not decode.
    struct Entry: Decodable {
        var session: Result<Session, DecodingFailure>
        init(from decoder: Decoder) throws {
            do {
                session = .success(try Session(from: decoder))
            } catch {
                session = .failure(DecodingFailure(description: "\(error)"))
            }
        }
    }

    struct DecodingFailure: Error {
        var description: String
    }

    /// The file's bytes for `sessions`, naming the journal generation `journal` follows it with.
    static func encode(_ sessions: [Session], journal: String? = nil) throws -> [UInt8] {
        Array(try prettyEncoder().encode(Written(journal: journal, version: version, sessions: sessions)))
    }

    /// The encoder of the file and of its entries (`SessionFileEncoder`): readable, keys sorted.
    static func prettyEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    /// The valid sessions of a file; throws only when the file as a whole is unreadable JSON.
    static func decode(_ bytes: [UInt8], from path: String) throws -> [String: Session] {
        try read(bytes, from: path).sessions
    }

    /// The valid sessions of a file and the journal it names; throws only when the file as a
    /// whole is unreadable JSON.
    static func read(_ bytes: [UInt8], from path: String) throws -> Contents {
        let file = try JSONDecoder().decode(Read.self, from: Data(bytes))
        var kept: [String: Session] = [:]
        keep(file.sessions, in: &kept, replacing: false, from: path)
        return Contents(sessions: kept, journal: file.journal)
    }

    /// Adds the valid sessions of `entries` to `kept`, logging each one dropped. With `replacing`
    /// (a journal record's newer copies) a session replaces the one of its name.
    static func keep(_ entries: [Entry], in kept: inout [String: Session], replacing: Bool, from path: String) {
        for (i, entry) in entries.enumerated() {
            switch entry.session {
            case .failure(let failure):
                Log.error("\(path): dropped session entry \(i + 1): it does not decode (\(failure.description))")
            case .success(let s):
                if let reason = rejection(of: s, kept: kept, replacing: replacing) {
                    Log.error("\(path): dropped session '\(s.name)' (entry \(i + 1)): \(reason)")
                } else {
                    kept[s.name] = s
                }
            }
        }
    }

    /// Why a restored session cannot be kept, or nil.
    private static func rejection(of s: Session, kept: [String: Session], replacing: Bool) -> String? {
        do {
            try SessionRules.validate(s)
        } catch {
            return error.message
        }
        let replaces = kept[s.name] != nil
        if replaces && !replacing { return "a session of that name was restored already" }
        if !replaces && kept.count >= maxSessions { return "more than \(maxSessions) sessions" }
        return nil
    }
}
