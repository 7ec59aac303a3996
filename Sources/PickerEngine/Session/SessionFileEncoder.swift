import Foundation

/// Writes `sessions.json` re-encoding only the sessions that changed since the last file. Under
/// load the session writer makes hundreds of rounds a second (the soak: 328), each changing one
/// or two of the sessions, and encoding all of them every round kept its thread busy
/// (docs/RELIABILITY.md, "Where `select`'s p99 goes"). The bytes are exactly
/// `SavedSessions.encode`'s (a test checks): each entry is the session encoded alone, indented
/// to its place in the file.
///
/// Used by the writer thread alone (the table keeps it behind a lock of its own).
struct SessionFileEncoder {
    private var entries: [String: (session: Session, json: [UInt8])] = [:]

    /// The file's bytes for `sorted` (sessions in name order, as `SavedSessions.encode` takes them)
    /// naming the journal generation `journal`.
    mutating func encode(_ sorted: [Session], journal: String? = nil) throws -> [UInt8] {
        guard !sorted.isEmpty else {
            entries = [:]
            return try SavedSessions.encode([], journal: journal)
        }
        var kept: [String: (session: Session, json: [UInt8])] = [:]
        kept.reserveCapacity(sorted.count)
        var file = Array("{\n".utf8)
        if let journal {
            // Encoded as the whole-file encoder does: a JSON string (the generation is hex, but escape anyway).
            let value = Array(try SavedSessions.prettyEncoder().encode(journal))
            file += Array(#"  "journal" : "#.utf8) + value + Array(",\n".utf8)
        }
        file += Array(#"  "sessions" : [\#n"#.utf8)
        for (i, session) in sorted.enumerated() {
            let json: [UInt8]
            if let known = entries[session.name], known.session == session {
                json = known.json
            } else {
                json = try Self.entry(session)
            }
            kept[session.name] = (session, json)
            if i > 0 { file += Array(",\n".utf8) }
            file += json
        }
        file += Array("\n  ],\n  \"version\" : \(SavedSessions.version)\n}".utf8)
        entries = kept
        return file
    }

    /// One session as the whole-file encoder writes it inside the `sessions` array: pretty-printed,
    /// keys sorted, every line but an empty one (an empty array's) indented by four spaces.
    static func entry(_ session: Session) throws -> [UInt8] {
        let alone = Array(try SavedSessions.prettyEncoder().encode(session))
        let newline = UInt8(ascii: "\n")
        var out: [UInt8] = []
        out.reserveCapacity(alone.count + alone.count / 8)
        var lineStart = true
        for byte in alone {
            // A newline inside a JSON string is escaped, so every raw newline ends a line.
            if lineStart && byte != newline { out += Array("    ".utf8) }
            out.append(byte)
            lineStart = byte == newline
        }
        return out
    }
}
