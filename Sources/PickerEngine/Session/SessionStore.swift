import Foundation
import PickerProtocol
import PickerSystem
import Synchronization

/// All sessions, behind one lock, saved in the state folder (`sessions.json` and its journal, see
/// `SessionPersistence`) by one writer thread with group commit (`SessionCommitter`): a change is
/// made in memory at once, and whoever must not answer before it is on disk asks `whenDurable`.
/// A save that fails (a full disk) is logged; the previous file stays and the daemon goes on.
public final class SessionStore: Sendable {
    private let table: SessionTable
    /// nil keeps sessions in memory only (no state folder, or one that was refused).
    private let committer: SessionCommitter<SessionPersistence.Round>?

    /// - Parameters:
    ///   - stateDirectory: where `sessions.json` lives; nil keeps sessions in memory only.
    ///     A folder that cannot be used safely (owned by another uid, a symlink) is logged and
    ///     sessions are then kept in memory only.
    ///   - foldAfterIdle: seconds without a change after which the journal is folded into
    ///     `sessions.json` (tests set it).
    public init(stateDirectory: String?, foldAfterIdle: Double = 0.25) {
        guard let path = stateDirectory else {
            Log.error("no state folder (neither XDG_STATE_HOME nor HOME is an absolute path, and no --state-dir): sessions are kept in memory only and will not survive a restart")
            table = SessionTable([:])
            committer = nil
            return
        }
        let folder: StateDirectory
        do {
            folder = try StateDirectory(path: path)
        } catch {
            Log.error("\(error.message); sessions are kept in memory only and will not survive a restart")
            table = SessionTable([:])
            committer = nil
            return
        }
        let (persistence, restored) = SessionPersistence.open(folder)
        let table = SessionTable(restored)
        self.table = table
        // The journal starts from a file holding everything restored (and a fresh generation).
        persistence.foldJournal(table.sortedSessions())
        let committer = SessionCommitter<SessionPersistence.Round>(
            file: persistence.fileShown,
            snapshot: { table.takeRound() },
            persist: { round in try persistence.write(round, all: table.sortedSessions()) },
            idle: { persistence.foldJournal(table.sortedSessions()) },
            idleDelay: foldAfterIdle)
        self.committer = committer
        committer.start()
    }

    /// Runs `deliver` once every session change made so far is on disk (at once when there is
    /// nothing to write, or no state folder). It runs on the writer thread: keep it short.
    public func whenDurable(_ deliver: @escaping @Sendable () -> Void) {
        whenDurable(session: nil, changes: true, deliver)
    }

    /// The reply of a request on `session` (nil: none) may go: for one that `changes` sessions,
    /// once every change so far is on disk; for one that changes nothing, at once, or right after
    /// that session's earlier replies still waiting (they keep their order).
    public func whenDurable(session: String?, changes: Bool, _ deliver: @escaping @Sendable () -> Void) {
        guard let committer else { return deliver() }
        committer.whenDurable(session: session, changes: changes, deliver)
    }

    /// Writes what is pending and stops the writer (shutdown); later changes stay in memory.
    public func finishWriting() {
        committer?.finish()
    }

    /// Write rounds so far (each one write and fsync of the file), for tests.
    var commitRounds: Int { committer?.rounds ?? 0 }

    /// Runs `body` on the named session and saves if it changed.
    /// - Throws: `.noSuchSession`, or whatever `body` throws (then nothing changes).
    public func update<T>(_ name: String, _ body: (inout Session) throws(PickerError) -> T) throws(PickerError) -> T {
        let (result, change) = try table.state.withLock { (t) throws(PickerError) -> (T, UInt64?) in
            guard var s = t.sessions[name] else { throw SessionStore.missing(name, t.sessions.count) }
            let before = s
            let r = try body(&s)
            guard s != before else { return (r, nil) }
            t.sessions[name] = s
            return (r, t.recordChange(name))
        }
        if let change { committer?.changed(change) }
        return result
    }

    public func get(_ name: String) throws(PickerError) -> Session {
        try table.state.withLock { (t) throws(PickerError) -> Session in
            guard let s = t.sessions[name] else { throw SessionStore.missing(name, t.sessions.count) }
            return s
        }
    }

    public func all() -> [Session] {
        table.state.withLock { Array($0.sessions.values) }.sorted { $0.name < $1.name }
    }

    /// - Throws: `.sessionExists` when the name is taken.
    public func create(_ session: Session) throws(PickerError) {
        let change = try table.state.withLock { (t) throws(PickerError) -> UInt64 in
            guard t.sessions[session.name] == nil else {
                throw PickerError(.sessionExists, "session '\(session.name)' already exists")
            }
            guard t.sessions.count < SavedSessions.maxSessions else {
                throw PickerError(.tooBusy, "too many sessions (limit 1024)")
            }
            t.sessions[session.name] = session
            return t.recordChange(session.name)
        }
        Log.info("session '\(session.name)' created (\(session.width)x\(session.height.map(String.init) ?? "-"))")
        committer?.changed(change)
    }

    public func remove(_ name: String) throws(PickerError) {
        let change = try table.state.withLock { (t) throws(PickerError) -> UInt64 in
            guard t.sessions.removeValue(forKey: name) != nil else { throw SessionStore.missing(name, t.sessions.count) }
            return t.recordChange(name)
        }
        Log.info("session '\(name)' closed")
        committer?.changed(change)
    }

    private static func missing(_ name: String, _ count: Int) -> PickerError {
        PickerError(.noSuchSession, "no session named '\(name)' (\(count) open)")
    }
}

/// The sessions, the number of the latest change and the names changed since the last write
/// round, under one lock, so a round and the change number it contains are always taken together.
private final class SessionTable: Sendable {
    struct Table {
        var sessions: [String: Session]
        var changes: UInt64 = 0
        /// Sessions changed, made or removed since the last round was taken.
        var dirty: Set<String> = []

        /// Numbers a change to session `name` just made; the writer uses the number to tell who
        /// may now be answered.
        mutating func recordChange(_ name: String) -> UInt64 {
            changes += 1
            dirty.insert(name)
            return changes
        }
    }

    let state: Mutex<Table>

    init(_ sessions: [String: Session]) {
        state = Mutex(Table(sessions: sessions))
    }

    /// Every session in name order (a fold's content).
    func sortedSessions() -> [Session] {
        state.withLock { Array($0.sessions.values) }.sorted { $0.name < $1.name }
    }

    /// The next write round: the sessions changed since the last round and the names removed, with
    /// the number of the last change they contain. Only the changed ones are copied under the lock.
    func takeRound() -> (sequence: UInt64, round: SessionPersistence.Round?) {
        let (changed, removed, sequence) = state.withLock { t in
            defer { t.dirty = [] }
            let changed = t.dirty.compactMap { t.sessions[$0] }
            return (changed, t.dirty.filter { t.sessions[$0] == nil }, t.changes)
        }
        return (sequence, SessionPersistence.Round(changed: changed.sorted { $0.name < $1.name }, removed: removed.sorted()))
    }
}
