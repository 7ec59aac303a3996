import Dispatch
import Foundation
@testable import PickerEngine
import PickerProtocol
import PickerSystem
import Synchronization
import Testing

/// `sessions.journal`: a round is a record, a crash image restores it, a file it does not follow
/// is left as it is, a torn record ends the replay, and the journal is folded when full or idle.
/// "A crash image" is a copy of the state folder's two files taken while the store runs: what a
/// kill -9 at that moment leaves on disk (the files are written in place and fdatasync'd).
@Suite struct SessionJournalTests {
    private static func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pkjournal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    private static func waitDurable(_ store: SessionStore) -> Bool {
        let done = DispatchSemaphore(value: 0)
        store.whenDurable { done.signal() }
        // A hang guard, not a timing assertion.
        return done.wait(timeout: .now() + 60) == .success
    }

    /// Copies the folder's session files into a new folder: the state a crash now would leave.
    private static func crashImage(of folder: String) throws -> String {
        let copy = try Self.folder()
        for name in [SavedSessions.fileName, SessionJournal.fileName] where FileManager.default.fileExists(atPath: folder + "/" + name) {
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: copy + "/" + name)
        }
        return copy
    }

    private static func restorable(_ folder: String) throws -> [String: Session] {
        SessionPersistence.restorable(try StateDirectory(path: folder))
    }

    private static func fileAlone(_ folder: String) throws -> [String: Session] {
        try SavedSessions.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + SavedSessions.fileName))), from: "sessions.json")
    }

    private static func retitle(_ store: SessionStore, _ name: String, _ title: String) throws {
        try store.update(name) { (s: inout Session) throws(PickerError) in s.title = title }
    }

    @Test func aRoundIsAJournalRecordAndACrashImageRestoresIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder, foldAfterIdle: 3600)
        defer { store.finishWriting() }
        try store.create(Session(NewSession(name: "kept", width: 300, height: nil)))
        try store.create(Session(NewSession(name: "gone", width: 300, height: nil)))
        try Self.retitle(store, "kept", "Journaled")
        try store.remove("gone")
        #expect(Self.waitDurable(store))

        let image = try Self.crashImage(of: folder)
        defer { try? FileManager.default.removeItem(atPath: image) }
        #expect(try Self.fileAlone(image).isEmpty, "sessions.json still holds the start's state: the journal did the work")
        let restored = try Self.restorable(image)
        #expect(restored.keys.sorted() == ["kept"])
        #expect(restored["kept"]?.title == "Journaled")
        // A real start on the image folds it: sessions.json alone then holds it.
        let started = SessionStore(stateDirectory: image)
        started.finishWriting()
        #expect(try Self.fileAlone(image)["kept"]?.title == "Journaled")
    }

    @Test func aSessionsFileTheJournalDoesNotFollowIsLeftAsItIs() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder, foldAfterIdle: 3600)
        defer { store.finishWriting() }
        try store.create(Session(NewSession(name: "journaled", width: 300, height: nil)))
        #expect(Self.waitDurable(store))

        let image = try Self.crashImage(of: folder)
        defer { try? FileManager.default.removeItem(atPath: image) }
        // Edited by hand (or restored from a backup): it names no journal generation.
        let edited = #"{"version":1,"sessions":[{"name":"by-hand","title":"t","width":100,"maxSelection":10,"selection":[]}]}"#
        try Data(edited.utf8).write(to: URL(fileURLWithPath: image + "/" + SavedSessions.fileName))
        #expect(try Self.restorable(image).keys.sorted() == ["by-hand"])
    }

    @Test func aTornRecordEndsTheReplayWhereItIs() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder, foldAfterIdle: 3600)
        defer { store.finishWriting() }
        try store.create(Session(NewSession(name: "s", width: 300, height: nil)))
        #expect(Self.waitDurable(store))
        try Self.retitle(store, "s", "Second")
        #expect(Self.waitDurable(store))

        let image = try Self.crashImage(of: folder)
        defer { try? FileManager.default.removeItem(atPath: image) }
        let journal = URL(fileURLWithPath: image + "/" + SessionJournal.fileName)
        var bytes = Array(try Data(contentsOf: journal))
        let contents = SessionJournalFormat.read(bytes)
        #expect(contents.payloads.count == 2)
        bytes[contents.end - 1] ^= 0xFF  // the last byte of the second record, as a torn write leaves it
        try Data(bytes).write(to: journal)
        let restored = try Self.restorable(image)
        #expect(restored["s"] != nil && restored["s"]?.title == Session.defaultTitle, "the first record applied, the torn one not")
    }

    @Test func aFullJournalIsFoldedIntoTheFileAndNothingIsLost() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder, foldAfterIdle: 3600)
        defer { store.finishWriting() }
        // ~25 KB a record: a 2 MiB journal fills in ~80 rounds.
        let picks = (0..<1000).map { "Album/photo-\($0).jpg" }
        try store.create(Session(NewSession(name: "big", width: 300, height: nil, maxSelection: 1000)))
        for i in 0..<200 {
            try store.update("big") { (s: inout Session) throws(PickerError) in
                s.selection = picks
                s.title = "round \(i)"
            }
            #expect(Self.waitDurable(store))
        }
        let image = try Self.crashImage(of: folder)
        defer { try? FileManager.default.removeItem(atPath: image) }
        let journal = SessionJournalFormat.read(Array(try Data(contentsOf: URL(fileURLWithPath: image + "/" + SessionJournal.fileName))))
        #expect(journal.payloads.count < 200, "the journal was started again after a fold")
        #expect(try Self.fileAlone(image)["big"]?.title != Session.defaultTitle, "sessions.json was rewritten by a fold")
        #expect(try Self.restorable(image)["big"]?.title == "round 199")
    }

    @Test func anIdleWriterFoldsTheJournalIntoTheFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder, foldAfterIdle: 0.05)
        defer { store.finishWriting() }
        try store.create(Session(NewSession(name: "s", width: 300, height: nil)))
        try Self.retitle(store, "s", "Folded")
        #expect(Self.waitDurable(store))
        var folded = false
        for _ in 0..<600 where !folded {  // a hang guard of 60 s, not a timing assertion
            folded = (try? Self.fileAlone(folder))?["s"]?.title == "Folded"
            if !folded { usleep(100_000) }
        }
        #expect(folded, "sessions.json holds the change once the writer was idle")
    }

    /// The seeds are written by fuzz/regressions/make_journal_seeds.py with Python's zlib CRC-32:
    /// an implementation of the format other than ours reads as the format says.
    @Test func journalsWrittenByAnotherImplementationReadAsTheFormatSays() throws {
        let seeds = try FuzzRegressionCorpus.files(of: "journal")
        func read(_ name: String) throws -> SessionJournalFormat.Contents {
            let file = try #require(seeds.first { $0.lastPathComponent == name }, "fuzz/regressions/journal/\(name)")
            return SessionJournalFormat.read(Array(try Data(contentsOf: file)))
        }
        let three = try read("three-records.journal")
        #expect(three.payloads.count == 3 && three.generation == Array(0..<16))
        #expect(try SessionJournalFormat.change(three.payloads[2]).removed == ["a"])
        #expect(try read("torn-last-record.journal").payloads.count == 2)
        #expect(try read("another-generation.journal").payloads.isEmpty)
        #expect(try read("number-skips.journal").payloads.isEmpty)
        #expect(try read("header-only.journal").payloads.isEmpty)
    }
}
