@testable import PickerDaemon
import PickerProtocol
import Testing

/// The per-connection output queue's cap on unsent events, without a socket.
@Suite struct OutputQueueTests {
    @Test func eventsPastTheCapAreRefusedWhileRepliesAreNot() {
        var conn = OutputQueue()
        let event = [UInt8](repeating: 1, count: 100)
        var accepted = 0
        while conn.enqueueEvent(event, limit: 1000) { accepted += 1 }
        #expect(accepted == 10)
        #expect(conn.queuedEventBytes == 1000)
        conn.enqueue([UInt8](repeating: 2, count: 5000))
        #expect(conn.queuedBytes == 6000)
        #expect(conn.queuedEventBytes == 1000)
    }

    @Test func oneEventLargerThanTheCapIsAcceptedWhenNoneIsQueued() {
        var conn = OutputQueue()
        let large = conn.enqueueEvent([UInt8](repeating: 1, count: 5000), limit: 1000)
        let next = conn.enqueueEvent([1], limit: 1000)
        #expect(large && !next)
    }

    @Test func discardingUnsentEventsKeepsRepliesInOrder() {
        var conn = OutputQueue()
        conn.enqueue([1, 1])
        _ = conn.enqueueEvent([9, 9, 9], limit: 1000)
        conn.enqueue([2, 2])
        _ = conn.enqueueEvent([9, 9, 9], limit: 1000)
        conn.discardUnsentEvents()
        #expect(conn.queuedBytes == 4)
        #expect(conn.queuedEventBytes == 0)
        let accepted = conn.enqueueEvent([9], limit: 1000)
        #expect(accepted)
    }
}
