import Foundation
import PickerProtocol

/// Fuzz target "journal": `SessionJournalFormat.read` over a `sessions.journal` from the state
/// folder, then the replay `SessionPersistence` makes of its records (a torn write or another
/// process may have left any bytes there).
///
/// The input is the whole file. Reading never traps; without the header it finds no records; the
/// records it finds lie inside the file, in order, each re-encoded from its own payload when that
/// decodes; every session a replay keeps obeys `SessionRules` and is keyed by its name.
public enum SessionJournalFuzzEntry {
    static let path = "fuzz/sessions.journal"

    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        let contents = SessionJournalFormat.read(bytes)
        let recordBytes = contents.payloads.reduce(0) { $0 + SessionJournalFormat.recordHeaderSize + $1.count }
        findings.expect(contents.end == SessionJournalFormat.headerSize + recordBytes, "end \(contents.end) is not after the \(contents.payloads.count) record(s)")
        guard let generation = contents.generation else {
            findings.expect(contents.payloads.isEmpty, "records read from a file without a journal header")
            return findings
        }
        findings.expect(contents.end <= bytes.count, "records end at \(contents.end), past the \(bytes.count) bytes")
        var kept: [String: Session] = [:]
        for (i, payload) in contents.payloads.enumerated() {
            findings.expect(!payload.isEmpty, "record \(i + 1) is empty")
            guard let change = try? SessionJournalFormat.change(payload) else { break }
            for name in change.removed { kept.removeValue(forKey: name) }
            SavedSessions.keep(change.sessions, in: &kept, replacing: true, from: path)
            checkRewrite(change, number: UInt32(i + 1), generation: generation, &findings)
        }
        SessionFileFuzzEntry.expectRestorable(kept, &findings)
        return findings
    }

    /// A record written again from what decoded reads back as one record of that change.
    private static func checkRewrite(_ read: SessionJournalFormat.ReadChange, number: UInt32, generation: [UInt8], _ findings: inout FuzzFindings) {
        let sessions = read.sessions.compactMap { try? $0.session.get() }
        let change = SessionJournalFormat.Change(removed: read.removed, sessions: sessions)
        guard let record = try? SessionJournalFormat.record(change, number: 1, generation: generation) else {
            findings.expect(false, "record \(number)'s change does not encode again")
            return
        }
        let again = SessionJournalFormat.read(SessionJournalFormat.header(generation: generation) + record)
        findings.expect(again.payloads.count == 1, "record \(number) written again reads back as \(again.payloads.count) record(s)")
    }
}
