@testable import PickerDaemon
import PickerProtocol
import PickerSystem
import Testing

/// The connection state machine alone: events in, actions and wants out, no socket, no clock.
@Suite struct ConnectionMachineTests {
    private static func machine(_ limits: ServerLimits = ServerLimits()) -> ConnectionMachine {
        var m = ConnectionMachine(capabilities: InProcessServer.capabilities, limits: limits, now: 0)
        _ = m.received(Request.hello(Hello(clientName: "t")).frame(id: 1).encoded(), now: 0)
        _ = m.flush { .transferred($0.count) }
        return m
    }

    private static func scheduled(_ actions: [ConnectionMachine.Action]) -> [UInt32] {
        actions.compactMap { if case .schedule(let w) = $0 { return w.id } else { return nil } }
    }

    @Test func readingStopsWhileOutputIsOverTheBoundAndResumesWhenDrained() {
        var limits = ServerLimits()
        limits.maxQueuedOutputBytes = 1000
        var m = Self.machine(limits)
        let actions = m.received(Request.status(session: "s").frame(id: 2).encoded(), now: 1)
        #expect(Self.scheduled(actions) == [2])
        _ = m.replyReady(id: 2, bytes: FrameBytes([UInt8](repeating: 1, count: 5000)), imageWork: false, now: 1)
        #expect(!m.wantsRead && m.wantsWrite)
        // The socket takes 3000 bytes, then is full.
        var room = 3000
        _ = m.flush { bytes in
            let n = min(bytes.count, room)
            room -= n
            return n == 0 ? .wouldBlock : .transferred(n)
        }
        #expect(!m.wantsRead, "2000 bytes still unsent: over the bound")
        _ = m.flush { .transferred($0.count) }
        #expect(m.wantsRead && !m.wantsWrite)
    }

    @Test func imageRequestsWaitForUnsentOutputAndStartInOrderWhenItDrains() {
        var limits = ServerLimits()
        limits.maxQueuedOutputBytes = 1000
        var m = Self.machine(limits)
        _ = m.received(Request.status(session: "s").frame(id: 2).encoded(), now: 1)
        _ = m.replyReady(id: 2, bytes: FrameBytes([UInt8](repeating: 1, count: 5000)), imageWork: false, now: 1)
        // Read before the bound was reached (the dispatcher stops reading only after this).
        let arrived = m.received(Request.getImage(ImageRequest(session: "s")).frame(id: 3).encoded()
                                 + Request.status(session: "s").frame(id: 4).encoded(), now: 1)
        #expect(Self.scheduled(arrived).isEmpty, "the image waits, and the status behind it keeps its place")
        let drained = m.flush { .transferred($0.count) } ?? []
        #expect(Self.scheduled(drained) == [3, 4])
    }

    @Test func aPartialFrameTimesOutOnlyAfterTheLimitOnTheGivenClock() {
        var m = Self.machine()
        _ = m.received([0, 0, 0, 9, 0x10], now: 100)
        m.tick(now: 109)
        #expect(!m.isFinished && !m.wantsWrite)
        m.tick(now: 110.5)
        #expect(m.wantsWrite, "an error frame is queued")
        _ = m.flush { .transferred($0.count) }
        #expect(m.isFinished)
    }

    @Test func aGoneConnectionReportsNilFromFlush() {
        var m = Self.machine()
        _ = m.received(Request.status(session: "s").frame(id: 2).encoded(), now: 1)
        _ = m.replyReady(id: 2, bytes: FrameBytes([1, 2, 3]), imageWork: false, now: 1)
        #expect(m.flush { _ throws(SystemError) in throw SystemError("send", Errno(rawValue: 32)) } == nil)
    }
}
