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
        var version: Int
        var sessions: [Session]
    }

    private struct Read: Decodable {
        var sessions: [Entry]
    }

    /// One entry: a session, or why it did not decode.
    private struct Entry: Decodable {
        var session: Result<Session, DecodingFailure>
        init(from decoder: Decoder) throws {
            do {
                session = .success(try Session(from: decoder))
            } catch {
                session = .failure(DecodingFailure(description: "\(error)"))
            }
        }
    }

    private struct DecodingFailure: Error {
        var description: String
    }

    /// The file's bytes for `sessions`.
    static func encode(_ sessions: [Session]) throws -> [UInt8] {
        Array(try prettyEncoder().encode(Written(version: version, sessions: sessions)))
    }

    /// The encoder of the file and of its entries (`SessionFileEncoder`): readable, keys sorted.
    static func prettyEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    /// The valid sessions of a file; throws only when the file as a whole is unreadable JSON.
    static func decode(_ bytes: [UInt8], from path: String) throws -> [String: Session] {
        let file = try JSONDecoder().decode(Read.self, from: Data(bytes))
        var kept: [String: Session] = [:]
        for (i, entry) in file.sessions.enumerated() {
            switch entry.session {
            case .failure(let failure):
                Log.error("\(path): dropped session entry \(i + 1): it does not decode (\(failure.description))")
            case .success(let s):
                if let reason = rejection(of: s, kept: kept) {
                    Log.error("\(path): dropped session '\(s.name)' (entry \(i + 1)): \(reason)")
                } else {
                    kept[s.name] = s
                }
            }
        }
        return kept
    }

    /// Why a restored session cannot be kept, or nil.
    private static func rejection(of s: Session, kept: [String: Session]) -> String? {
        do {
            try SessionRules.validate(s)
        } catch {
            return error.message
        }
        if kept[s.name] != nil { return "a session of that name was restored already" }
        if kept.count >= maxSessions { return "more than \(maxSessions) sessions" }
        return nil
    }
}
