import Foundation
import PickerProtocol

/// Fuzz target "sessions": `SavedSessions.decode` over a `sessions.json` from the state folder,
/// as `SessionStore` restores it at start-up (a file another process or a torn write may have
/// left).
///
/// The input is the whole file. A file that is not JSON of the right shape is refused as a whole
/// with a `DecodingError`; otherwise every session kept obeys `SessionRules`, is keyed by its own
/// name, stays within the session limit, and survives being saved and restored unchanged.
public enum SessionFileFuzzEntry {
    static let path = "fuzz/sessions.json"

    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        let kept: [String: Session]
        do {
            kept = try SavedSessions.decode(bytes, from: path)
        } catch {
            findings.expect(error is DecodingError, "refused with \(type(of: error)), not a DecodingError: \(error)")
            return findings
        }
        findings.expect(kept.count <= SavedSessions.maxSessions, "\(kept.count) sessions kept, over \(SavedSessions.maxSessions)")
        expectRestorable(kept, &findings)
        do {
            let saved = try SavedSessions.encode(kept.values.sorted { $0.name < $1.name })
            let restored = try SavedSessions.decode(saved, from: path)
            findings.expect(restored == kept, "saving and restoring changed the sessions")
        } catch {
            findings.expect(false, "the kept sessions do not save and restore: \(error)")
        }
        return findings
    }

    /// What every restored session must be, from the file or a journal record: keyed by its own
    /// name and within `SessionRules`.
    static func expectRestorable(_ kept: [String: Session], _ findings: inout FuzzFindings) {
        for (name, session) in kept {
            findings.expect(name == session.name, "session '\(session.name)' kept under '\(name)'")
            do throws(PickerError) {
                try SessionRules.validate(session)
            } catch {
                findings.expect(false, "session '\(session.name)' kept though \(error.message)")
            }
        }
    }
}
