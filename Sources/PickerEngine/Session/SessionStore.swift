import Foundation
import PickerProtocol
import PickerSystem
import Synchronization

/// All sessions, behind one lock, saved atomically to disk after every change
/// (temp file, fsync, rename, fsync of the folder), so a crash loses nothing.
public final class SessionStore: Sendable {
    private let sessions: Mutex<[String: Session]>
    private let fileURL: URL?
    private let saveLock = Mutex<Void>(())

    private struct SavedState: Codable {
        var version: Int
        var sessions: [Session]
    }

    /// - Parameter stateDirectory: where `sessions.json` lives; nil keeps sessions in memory only.
    public init(stateDirectory: String?) {
        guard let dir = stateDirectory else {
            fileURL = nil
            sessions = Mutex([:])
            return
        }
        let url = URL(fileURLWithPath: dir).appendingPathComponent("sessions.json")
        fileURL = url
        sessions = Mutex(SessionStore.load(url))
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
            guard dict.count < 1024 else {
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
        guard let url = fileURL else { return }
        // Serialise writers so an older snapshot never lands after a newer one.
        saveLock.withLock { _ in
            let state = SavedState(version: 1, sessions: all())
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            guard let data = orLog("encoding sessions", { try encoder.encode(state) }) else { return }
            do {
                try AtomicFile.write(Array(data), to: url.path)
            } catch {
                Log.error("saving sessions to \(url.path): \(error)")
            }
        }
    }

    private static func load(_ url: URL) -> [String: Session] {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        do {
            let data = try Data(contentsOf: url)
            let state = try JSONDecoder().decode(SavedState.self, from: data)
            var dict: [String: Session] = [:]
            for s in state.sessions { dict[s.name] = s }
            Log.info("restored \(dict.count) session(s) from \(path)")
            return dict
        } catch {
            // A torn or corrupt file must never stop the daemon: keep it for inspection, start empty.
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            rename(path, aside)
            Log.error("session file \(path) is unreadable (\(error)); moved aside to \(aside), starting with no sessions")
            return [:]
        }
    }
}
