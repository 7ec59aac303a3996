#if canImport(Glibc)
import Glibc
#endif
@testable import PickerDaemon
import PickerProtocol
import PickerSystem
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

/// A frame of several buffers goes out whole and in order, however little each send takes.
@Suite struct OutputQueuePartsTests {
    @Test func aFrameOfPartsIsWrittenInOrderAcrossShortSends() {
        var queue = OutputQueue()
        let parts: [[UInt8]] = [[1, 2, 3], Array(repeating: 7, count: 1000), [9, 9]]
        queue.enqueue(FrameBytes(parts: parts))
        queue.enqueue([4, 4])
        var sent: [UInt8] = []
        var sends = 0
        while queue.hasPending {
            _ = queue.write { gathered in
                sends += 1
                // Takes at most 301 bytes a call, across buffer boundaries.
                var room = 301
                for buffer in gathered.buffers where room > 0 {
                    let n = min(room, buffer.count)
                    sent += Array(buffer[0..<n])
                    room -= n
                }
                return .transferred(301 - room)
            }
        }
        #expect(sent == parts.flatMap { $0 } + [4, 4])
        #expect(sends >= 4)
        #expect(queue.queuedBytes == 0)
    }
}

/// Small replies queued while the peer reads nothing share buffers: a flood of pongs costs its
/// bytes (not an allocation each) and goes out in a few writes, in order.
@Suite struct OutputQueueCoalescingTests {
    /// Writes everything, each send taking all it is given.
    private static func drain(_ queue: inout OutputQueue) -> (bytes: [UInt8], sends: Int) {
        var sent: [UInt8] = []
        var sends = 0
        while queue.hasPending {
            _ = queue.write { gathered in
                sends += 1
                for buffer in gathered.buffers { sent += Array(buffer) }
                return .transferred(gathered.buffers.reduce(0) { $0 + $1.count })
            }
        }
        return (sent, sends)
    }

    @Test func tenThousandSmallRepliesGoOutInAFewWritesInOrder() {
        var queue = OutputQueue()
        var expected: [UInt8] = []
        for i in 0..<10_000 {
            let pong = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 14)
            queue.enqueue(pong)
            expected += pong
        }
        #expect(queue.queuedBytes == 140_000)
        let (bytes, sends) = Self.drain(&queue)
        #expect(bytes == expected)
        #expect(sends <= 3, "\(sends) writes: 140,000 bytes in buffers of at most 64 KiB")
    }

    @Test func aReplyJoinsAFramePartlyWrittenAndNeverAnEvent() {
        var queue = OutputQueue()
        queue.enqueue([1, 2, 3])
        var first = true
        _ = queue.write { _ in
            defer { first = false }
            return first ? .transferred(1) : .wouldBlock
        }
        queue.enqueue([4, 5])
        _ = queue.enqueueEvent([9, 9], limit: 1000)
        queue.enqueue([6])
        queue.discardUnsentEvents()
        #expect(queue.queuedBytes == 5)
        #expect(Self.drain(&queue).bytes == [2, 3, 4, 5, 6])
    }
}

/// `sendmsg` of gathered buffers over a real stream socket: the peer reads them as one run.
@Suite struct GatheredSendTests {
    @Test func gatheredBuffersArriveAsOneRunOfBytes() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let parts: [[UInt8]] = [[1, 2], Array(repeating: 5, count: 4000), [8]]
        let progress = try GatheredBytes.with(parts, from: 1) { gathered throws(SystemError) in
            try FileDescriptorIO.send(fds[0], gathered)
        }
        #expect(progress == .transferred(4002))
        var received = [UInt8](repeating: 0, count: 8192)
        var total = 0
        while total < 4002 {
            let n = received.withUnsafeMutableBytes { read(fds[1], $0.baseAddress! + total, 8192 - total) }
            try #require(n > 0)
            total += n
        }
        #expect(Array(received[0..<total]) == [2] + Array(repeating: 5, count: 4000) + [8])
    }
}
