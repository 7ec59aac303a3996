import Foundation
import PickerSystem
import Synchronization

/// The sessions on disk: `sessions.json`, every session, and `sessions.journal`, the write rounds
/// since that file was written. A round is one journal record (`pwrite` + `fdatasync`: no file
/// replaced, no metadata), so a change's reply waits a fraction of a millisecond instead of an
/// atomic replace's tail (docs/RELIABILITY.md, "Where `select`'s p99 goes"). The journal is
/// folded into `sessions.json` when it is full, when the writer has been idle a moment, at
/// shutdown and at start-up; `sessions.json` names the journal generation that follows it, so a
/// replay never applies records to a file they do not follow (one edited by hand, or restored
/// from a backup, stays as it is). Without a journal (it cannot be made: a full or tiny disk),
/// every round replaces `sessions.json`, as before there was one.
final class SessionPersistence: Sendable {
    private let folder: StateDirectory
    /// `sessions.json`'s path, for logs.
    let fileShown: String
    private let state: Mutex<WriterState>

    private struct WriterState {
        var encoder = SessionFileEncoder()
        var journal: SessionJournal?
        /// The next write must be a fold: none was made yet, or the last one failed.
        var needsFold = true
    }

    /// What one write round saves: the sessions changed since the last round (name order) and the
    /// names of those removed; a fold reads every session when it runs.
    struct Round: Sendable {
        var changed: [Session]
        var removed: [String]
    }

    /// Restores the folder's sessions (`sessions.json`, then the journal records that follow it)
    /// and opens the journal; the caller folds them (`fold`) before the writer starts.
    static func open(_ folder: StateDirectory) -> (SessionPersistence, [String: Session]) {
        let persistence = SessionPersistence(folder)
        let restored = persistence.restore()
        persistence.openJournal()
        return (persistence, restored)
    }

    private init(_ folder: StateDirectory) {
        self.folder = folder
        fileShown = folder.path + "/" + SavedSessions.fileName
        state = Mutex(WriterState())
    }

    /// Opens the journal once it has been read; without one, every round replaces `sessions.json`.
    /// Whatever is in its place and cannot be opened as ours (a symlink, another uid's file, a
    /// FIFO) is removed and a journal made anew once.
    private func openJournal() {
        var failure: SystemError?
        for _ in 0..<2 {
            do {
                let journal = try SessionJournal(in: folder)
                state.withLock { $0.journal = journal }
                return
            } catch {
                failure = error
                folder.remove(SessionJournal.fileName)
            }
        }
        Log.error("cannot make \(folder.path)/\(SessionJournal.fileName) (\(failure.map { "\($0)" } ?? "")); every session change rewrites \(SavedSessions.fileName)")
    }

    /// Saves a round: a journal record, or a fold of `all` (every session now, taken only for a fold)
    /// when there is no journal, it is full, or the last fold failed. Throws what failed (the files
    /// then hold the state before the round).
    func write(_ round: Round, all: @autoclosure () -> [Session]) throws {
        try state.withLock { (s: inout WriterState) throws in
            if !s.needsFold, var journal = s.journal {
                defer { s.journal = journal }
                do {
                    if try journal.append(SessionJournalFormat.Change(removed: round.removed, sessions: round.changed)) { return }
                } catch {
                    Log.error("appending to \(folder.path)/\(SessionJournal.fileName) failed (\(error)); writing \(SavedSessions.fileName) instead")
                }
            }
            try Self.fold(&s, all(), in: folder)
        }
    }

    /// Folds the journal into `sessions.json` when it holds records (the writer is idle, or stopping).
    func foldJournal(_ all: @autoclosure () -> [Session]) {
        state.withLock { s in
            guard s.needsFold || (s.journal?.records ?? 0) > 0 else { return }
            do {
                try Self.fold(&s, all(), in: folder)
            } catch {
                Log.error("saving sessions to \(fileShown) failed (\(error)); the journal keeps the changes")
            }
        }
    }

    /// Writes every session to `sessions.json` naming a new journal generation, then starts the
    /// journal empty for it — in that order, so a crash between the two leaves a file whose
    /// journal does not match, and nothing is replayed twice or onto the wrong file.
    private static func fold(_ s: inout WriterState, _ all: [Session], in folder: StateDirectory) throws {
        s.needsFold = true
        let generation = SessionJournalFormat.newGeneration()
        let named = s.journal == nil ? nil : SessionJournalFormat.hex(generation)
        try folder.replace(SavedSessions.fileName, with: try s.encoder.encode(all, journal: named))
        if var journal = s.journal {
            do {
                try journal.reset(generation: generation)
                s.journal = journal
            } catch {
                Log.error("cannot start \(folder.path)/\(SessionJournal.fileName) again (\(error)); every session change rewrites \(SavedSessions.fileName)")
                s.journal = nil
            }
        }
        s.needsFold = false
    }
}

// MARK: restoring

extension SessionPersistence {
    /// What a start on `folder` would restore, leaving the journal as it is (tests: the state a
    /// crash at this moment leaves).
    static func restorable(_ folder: StateDirectory) -> [String: Session] {
        SessionPersistence(folder).restore()
    }

    /// The valid sessions of `sessions.json` with the journal's records applied. A file that cannot
    /// be read as a whole (torn, not JSON, a symlink, too big) never stops the daemon: it is moved
    /// aside for inspection and the daemon starts with no sessions.
    private func restore() -> [String: Session] {
        guard var contents = readSessionsFile() else { return [:] }
        let records = replay(onto: &contents)
        Log.info("restored \(contents.sessions.count) session(s) from \(fileShown)" + (records > 0 ? " and \(records) journal record(s)" : ""))
        return contents.sessions
    }

    private func readSessionsFile() -> SavedSessions.Contents? {
        let problem: String
        switch folder.read(SavedSessions.fileName, maxBytes: SavedSessions.maxFileBytes) {
        case .missing:
            return SavedSessions.Contents(sessions: [:], journal: nil)
        case .refused(let why):
            problem = why
        case .bytes(let bytes):
            do {
                return try SavedSessions.read(bytes, from: fileShown)
            } catch {
                problem = "\(error)"
            }
        }
        let aside = SavedSessions.fileName + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        do {
            try folder.rename(SavedSessions.fileName, to: aside)
            Log.error("session file \(fileShown) is unreadable (\(problem)); moved aside to \(aside), starting with no sessions")
        } catch {
            Log.error("session file \(fileShown) is unreadable (\(problem)) and cannot be moved aside (\(error)); starting with no sessions")
        }
        return nil
    }

    /// Applies the journal's records that follow `contents` (its generation is the one the file
    /// names); returns how many. A record that does not decode ends the replay there.
    private func replay(onto contents: inout SavedSessions.Contents) -> Int {
        let journalShown = folder.path + "/" + SessionJournal.fileName
        guard case .bytes(let bytes) = folder.read(SessionJournal.fileName, maxBytes: SessionJournal.capacity) else { return 0 }
        let journal = SessionJournalFormat.read(bytes)
        guard let generation = journal.generation, SessionJournalFormat.hex(generation) == contents.journal else {
            if !journal.payloads.isEmpty {
                Log.error("\(journalShown) does not follow \(fileShown) (edited or restored?); its \(journal.payloads.count) record(s) are not applied")
            }
            return 0
        }
        for (i, payload) in journal.payloads.enumerated() {
            do {
                let change = try SessionJournalFormat.change(payload)
                for name in change.removed { contents.sessions.removeValue(forKey: name) }
                SavedSessions.keep(change.sessions, in: &contents.sessions, replacing: true, from: journalShown)
            } catch {
                Log.error("\(journalShown): record \(i + 1) does not decode (\(error)); the \(journal.payloads.count - i) record(s) from there are not applied")
                return i
            }
        }
        return journal.payloads.count
    }
}
