import Foundation
import PickerProtocol
import PickerSystem
import Synchronization

/// All sessions, behind one lock, saved atomically to `sessions.json` in the state folder (see
/// `AtomicFileWriter`) by one writer thread with group commit (`SessionCommitter`): a change is
/// made in memory at once, and whoever must not answer before it is on disk asks `whenDurable`.
/// A save that fails (a full disk) is logged; the previous file stays and the daemon goes on.
public final class SessionStore: Sendable {
    private let table: SessionTable
    /// nil keeps sessions in memory only (no state folder, or one that was refused).
    private let committer: SessionCommitter?

    /// - Parameter stateDirectory: where `sessions.json` lives; nil keeps sessions in memory only.
    ///   A folder that cannot be used safely (owned by another uid, a symlink) is logged and
    ///   sessions are then kept in memory only.
    public init(stateDirectory: String?) {
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
        let table = SessionTable(SessionStore.load(folder))
        self.table = table
        let committer = SessionCommitter(
            file: folder.path + "/" + SavedSessions.fileName,
            snapshot: { table.encodedSnapshot() },
            persist: { bytes in try folder.replace(SavedSessions.fileName, with: bytes) })
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
            return (r, t.recordChange())
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
            return t.recordChange()
        }
        Log.info("session '\(session.name)' created (\(session.width)x\(session.height.map(String.init) ?? "-"))")
        committer?.changed(change)
    }

    public func remove(_ name: String) throws(PickerError) {
        let change = try table.state.withLock { (t) throws(PickerError) -> UInt64 in
            guard t.sessions.removeValue(forKey: name) != nil else { throw SessionStore.missing(name, t.sessions.count) }
            return t.recordChange()
        }
        Log.info("session '\(name)' closed")
        committer?.changed(change)
    }

    private static func missing(_ name: String, _ count: Int) -> PickerError {
        PickerError(.noSuchSession, "no session named '\(name)' (\(count) open)")
    }

    // MARK: persistence

    /// The valid sessions of the folder's `sessions.json`. A file that cannot be read as a whole
    /// (torn, not JSON, a symlink, too big) never stops the daemon: it is moved aside for
    /// inspection and the daemon starts with no sessions.
    private static func load(_ folder: StateDirectory) -> [String: Session] {
        let path = folder.path + "/" + SavedSessions.fileName
        let problem: String
        switch folder.read(SavedSessions.fileName, maxBytes: SavedSessions.maxFileBytes) {
        case .missing:
            return [:]
        case .refused(let why):
            problem = why
        case .bytes(let bytes):
            do {
                let restored = try SavedSessions.decode(bytes, from: path)
                Log.info("restored \(restored.count) session(s) from \(path)")
                return restored
            } catch {
                problem = "\(error)"
            }
        }
        let aside = SavedSessions.fileName + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        do {
            try folder.rename(SavedSessions.fileName, to: aside)
            Log.error("session file \(path) is unreadable (\(problem)); moved aside to \(aside), starting with no sessions")
        } catch {
            Log.error("session file \(path) is unreadable (\(problem)) and cannot be moved aside (\(error)); starting with no sessions")
        }
        return [:]
    }
}

/// The sessions and the number of the latest change, under one lock, so a snapshot and the
/// change number it contains are always taken together.
private final class SessionTable: Sendable {
    struct Table {
        var sessions: [String: Session]
        var changes: UInt64 = 0

        /// Numbers a change just made; the writer uses the number to tell who may now be answered.
        mutating func recordChange() -> UInt64 {
            changes += 1
            return changes
        }
    }

    let state: Mutex<Table>
    /// The writer's alone (its own lock, never held with `state`): it re-encodes only changed sessions.
    private let fileEncoder = Mutex(SessionFileEncoder())

    init(_ sessions: [String: Session]) {
        state = Mutex(Table(sessions: sessions))
    }

    /// The sessions and the number of the last change they contain, encoded for the file.
    /// Encoding runs outside the table's lock: only the copy is taken under it.
    func encodedSnapshot() -> (sequence: UInt64, bytes: [UInt8]?) {
        let (sessions, sequence) = state.withLock { t in (Array(t.sessions.values), t.changes) }
        let sorted = sessions.sorted { $0.name < $1.name }
        return (sequence, orLog("encoding sessions") { try fileEncoder.withLock { try $0.encode(sorted) } })
    }
}
