import Foundation
import PickerProtocol
import PickerSystem
import Synchronization

/// All sessions, behind one lock, saved atomically to `sessions.json` in the state folder after
/// every change (see `AtomicFileWriter`), so a crash loses nothing and nothing planted is followed.
/// A save that fails (a full disk) is logged; the previous file stays and the daemon goes on.
public final class SessionStore: Sendable {
    private let sessions: Mutex<[String: Session]>
    /// nil keeps sessions in memory only (no state folder, or one that was refused).
    private let folder: StateDirectory?
    private let saveLock = Mutex<Void>(())

    /// - Parameter stateDirectory: where `sessions.json` lives; nil keeps sessions in memory only.
    ///   A folder that cannot be used safely (owned by another uid, a symlink) is logged and
    ///   sessions are then kept in memory only.
    public init(stateDirectory: String?) {
        guard let path = stateDirectory else {
            Log.error("no state folder (neither XDG_STATE_HOME nor HOME is an absolute path, and no --state-dir): sessions are kept in memory only and will not survive a restart")
            folder = nil
            sessions = Mutex([:])
            return
        }
        do {
            let opened = try StateDirectory(path: path)
            folder = opened
            sessions = Mutex(SessionStore.load(opened))
        } catch {
            Log.error("\(error.message); sessions are kept in memory only and will not survive a restart")
            folder = nil
            sessions = Mutex([:])
        }
    }

    /// Runs `body` on the named session and saves if it changed.
    /// - Throws: `.noSuchSession`, or whatever `body` throws (then nothing changes).
    public func update<T>(_ name: String, _ body: (inout Session) throws(PickerError) -> T) throws(PickerError) -> T {
        let (result, changed) = try sessions.withLock { (dict) throws(PickerError) -> (T, Bool) in
            guard var s = dict[name] else { throw SessionStore.missing(name, dict.count) }
            let before = s
            let r = try body(&s)
            dict[name] = s
            return (r, s != before)
        }
        if changed { save() }
        return result
    }

    public func get(_ name: String) throws(PickerError) -> Session {
        try sessions.withLock { (dict) throws(PickerError) -> Session in
            guard let s = dict[name] else { throw SessionStore.missing(name, dict.count) }
            return s
        }
    }

    public func all() -> [Session] {
        sessions.withLock { Array($0.values) }.sorted { $0.name < $1.name }
    }

    /// - Throws: `.sessionExists` when the name is taken.
    public func create(_ session: Session) throws(PickerError) {
        try sessions.withLock { (dict) throws(PickerError) in
            guard dict[session.name] == nil else {
                throw PickerError(.sessionExists, "session '\(session.name)' already exists")
            }
            guard dict.count < SavedSessions.maxSessions else {
                throw PickerError(.tooBusy, "too many sessions (limit 1024); close some with `pickerctl session close`")
            }
            dict[session.name] = session
        }
        Log.info("session '\(session.name)' created (\(session.width)x\(session.height.map(String.init) ?? "-"))")
        save()
    }

    public func remove(_ name: String) throws(PickerError) {
        try sessions.withLock { (dict) throws(PickerError) in
            guard dict.removeValue(forKey: name) != nil else { throw SessionStore.missing(name, dict.count) }
        }
        Log.info("session '\(name)' closed")
        save()
    }

    private static func missing(_ name: String, _ count: Int) -> PickerError {
        PickerError(.noSuchSession, "no session named '\(name)' (\(count) open; create it with `pickerctl session new \(name) --width W`)")
    }

    // MARK: persistence

    private func save() {
        guard let folder else { return }
        // Serialise writers so an older snapshot never lands after a newer one.
        saveLock.withLock { _ in
            guard let bytes = orLog("encoding sessions", { try SavedSessions.encode(all()) }) else { return }
            do {
                try folder.replace(SavedSessions.fileName, with: bytes)
            } catch {
                Log.error("saving sessions to \(folder.path)/\(SavedSessions.fileName) failed (\(error)); the previous file is kept")
            }
        }
    }

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
