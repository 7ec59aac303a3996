import Dispatch
import Foundation
@testable import PickerEngine
import PickerProtocol
import PickerSystem
import Synchronization
import Testing

/// The session writer: replies wait for durability, and concurrent changes share write rounds.
@Suite struct SessionCommitTests {
    private static func stateFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pkcommit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    private static func waitDurable(_ store: SessionStore, then check: @escaping @Sendable () -> Bool) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex(false)
        store.whenDurable {
            result.withLock { $0 = check() }
            done.signal()
        }
        // A hang guard, not a timing assertion: the round takes milliseconds.
        guard done.wait(timeout: .now() + 60) == .success else { return false }
        return result.withLock { $0 }
    }

    @Test func whenDurableRunsOnlyOnceTheChangeIsInTheFile() throws {
        let folder = try Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder)
        defer { store.finishWriting() }
        try store.create(Session(NewSession(name: "s", width: 100, height: nil)))
        try store.update("s") { (s: inout Session) throws(PickerError) in s.title = "Durable-Title-1" }
        let seen = Self.waitDurable(store) {
            // What a crash now would leave: sessions.json and the journal records that follow it.
            guard let state = try? StateDirectory(path: folder) else { return false }
            return SessionPersistence.restorable(state)["s"]?.title == "Durable-Title-1"
        }
        #expect(seen, "the files did not hold the change when its reply was released")
    }

    @Test func concurrentChangesShareWriteRounds() throws {
        let folder = try Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder)
        defer { store.finishWriting() }
        let clients = 64, changesEach = 20
        for i in 0..<clients { try store.create(Session(NewSession(name: "s\(i)", width: 100, height: nil))) }
        DispatchQueue.concurrentPerform(iterations: clients) { i in
            for j in 0..<changesEach {
                _ = try? store.update("s\(i)") { (s: inout Session) throws(PickerError) in s.title = "t\(j)" }
            }
        }
        #expect(Self.waitDurable(store) { true })
        let changes = clients + clients * changesEach
        #expect(store.commitRounds < changes, "\(store.commitRounds) write rounds for \(changes) changes: no grouping")
        let reloaded = SessionStore(stateDirectory: folder)
        defer { reloaded.finishWriting() }
        #expect(reloaded.all().count == clients)
        #expect(reloaded.all().allSatisfy { $0.title == "t\(changesEach - 1)" })
    }

    @Test func finishWritingLeavesEveryChangeOnDisk() throws {
        let folder = try Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = SessionStore(stateDirectory: folder)
        try store.create(Session(NewSession(name: "late", width: 200, height: nil)))
        store.finishWriting()
        let reloaded = SessionStore(stateDirectory: folder)
        defer { reloaded.finishWriting() }
        #expect((try? reloaded.get("late"))?.width == 200)
    }

    /// A reply that changed nothing waits for no fsync, but still keeps its order behind its own
    /// session's replies that wait (item 5 of issue 22): the write is held open by the test.
    @Test func aReplyThatChangedNothingWaitsOnlyBehindItsOwnSession() {
        let gate = DispatchSemaphore(value: 0)
        let committer = SessionCommitter<Int>(file: "test", snapshot: { (1, 1) }, persist: { _ in gate.wait() })
        committer.start()
        let seen = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        committer.changed(1)
        committer.whenDurable(session: "a", changes: true) { seen.withLock { $0.append("a changed") } }
        committer.whenDurable(session: "b", changes: false) { seen.withLock { $0.append("b read") } }
        committer.whenDurable(session: nil, changes: false) { seen.withLock { $0.append("ping") } }
        committer.whenDurable(session: "a", changes: false) {
            seen.withLock { $0.append("a read") }
            done.signal()
        }
        #expect(seen.withLock { $0 } == ["b read", "ping"], "only the replies of other sessions went while the write ran")
        gate.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(seen.withLock { $0 } == ["b read", "ping", "a changed", "a read"])
        committer.finish()
    }
}
