import Foundation
@testable import PickerEngine
import PickerProtocol
import Testing

/// `SessionFileEncoder` writes the same bytes as encoding the whole file, round after round, while
/// it re-encodes only the sessions that changed.
@Suite struct SessionFileEncoderTests {
    private static func session(_ name: String, width: Int = 600, height: Int? = 400) throws -> Session {
        try Session(NewSession(name: name, width: width, height: height))
    }

    /// Sessions with every optional field absent, present, empty and full, names that JSON escapes.
    private static func assorted() throws -> [Session] {
        var plain = try session("a-plain", height: nil)
        plain.title = "A quote \" and back\\slash, 写真"
        var full = try session("b-full")
        full.album = "Trips/2019 \"Alps\""
        full.photo = "Trips/2019/line\nbreak.jpg"
        full.selection = ["x.jpg", "Trips/ü.heic", "a/b/c.png"]
        full.sort = .date
        full.finished = 1
        var emptyPicks = try session("c-empty-picks")
        emptyPicks.album = "All Photos"
        emptyPicks.selection = []
        return [plain, full, emptyPicks]
    }

    @Test func theBytesAreTheWholeFileEncodersRoundAfterRound() throws {
        var encoder = SessionFileEncoder()
        var sessions = try Self.assorted()
        #expect(try encoder.encode(sessions) == SavedSessions.encode(sessions))
        // A change to one session, an added one, a removed one: each round still the same bytes.
        sessions[1].selection.append("new.jpg")
        #expect(try encoder.encode(sessions) == SavedSessions.encode(sessions))
        sessions.append(try Self.session("d-added"))
        #expect(try encoder.encode(sessions) == SavedSessions.encode(sessions))
        sessions.remove(at: 0)
        #expect(try encoder.encode(sessions) == SavedSessions.encode(sessions))
        #expect(try encoder.encode([]) == SavedSessions.encode([]))
        #expect(try encoder.encode(sessions) == SavedSessions.encode(sessions))
    }

    @Test func theJournalGenerationIsWrittenAsTheWholeFileEncoderWritesIt() throws {
        var encoder = SessionFileEncoder()
        let sessions = try Self.assorted()
        let generation = "0123456789abcdef0123456789abcdef"
        let bytes = try encoder.encode(sessions, journal: generation)
        #expect(bytes == (try SavedSessions.encode(sessions, journal: generation)))
        #expect(try encoder.encode([], journal: generation) == SavedSessions.encode([], journal: generation))
        #expect(try SavedSessions.read(bytes, from: "sessions.json").journal == generation)
    }

    @Test func aFileItWroteReadsBackAsTheSameSessions() throws {
        var encoder = SessionFileEncoder()
        let sessions = try Self.assorted()
        let restored = try SavedSessions.decode(try encoder.encode(sessions), from: "sessions.json")
        #expect(restored.count == sessions.count)
        for s in sessions { #expect(restored[s.name] == s) }
    }
}
