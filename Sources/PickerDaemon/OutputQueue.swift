import PickerProtocol
import PickerSystem

/// A connection's unsent frames, replies and events apart, so the event cap can count events
/// alone. Pure but for the `send` closure `write` is given.
struct OutputQueue {
    private struct Pending {
        var bytes: FrameBytes
        var isEvent: Bool
    }

    private var frames: [Pending] = []
    /// How much of the first frame is already written.
    private var offset = 0
    private(set) var queuedBytes = 0
    /// Unsent bytes that are events (as opposed to replies), which the event cap bounds.
    private(set) var queuedEventBytes = 0

    var hasPending: Bool { !frames.isEmpty }

    mutating func enqueue(_ bytes: [UInt8]) {
        enqueue(FrameBytes(bytes))
    }

    /// Replies up to this size join the last queued one when it is a reply of one buffer with room.
    static let coalescedReplyBytes = 64 << 10

    mutating func enqueue(_ bytes: FrameBytes) {
        guard bytes.count > 0 else { return }
        queuedBytes += bytes.count
        // A flood of pings from a client that does not read cost an allocation a pong (about 100
        // bytes of heap for 14 on the wire: the soak's 20 non-readers held ~60 MB under a 1 MiB
        // bound each); joined, unsent replies cost their bytes, and one write sends many.
        if bytes.parts.count == 1, let last = frames.indices.last, !frames[last].isEvent,
           frames[last].bytes.parts.count == 1, frames[last].bytes.count + bytes.count <= Self.coalescedReplyBytes {
            frames[last].bytes.append(bytes.parts[0])
            return
        }
        frames.append(Pending(bytes: bytes, isEvent: false))
    }

    /// Queues an event unless that would put more than `limit` bytes of events in the queue.
    /// One event is always accepted when none is queued, so a large one still goes out.
    /// - Returns: false when the event was refused (the subscriber is too far behind).
    mutating func enqueueEvent(_ bytes: [UInt8], limit: Int) -> Bool {
        guard queuedEventBytes == 0 || queuedEventBytes + bytes.count <= limit else { return false }
        frames.append(Pending(bytes: FrameBytes(bytes), isEvent: true))
        queuedBytes += bytes.count
        queuedEventBytes += bytes.count
        return true
    }

    /// Forgets every queued event not yet begun (a frame partly written stays, to keep framing).
    mutating func discardUnsentEvents() {
        var kept: [Pending] = []
        for (i, p) in frames.enumerated() {
            if p.isEvent && !(i == 0 && offset > 0) {
                queuedBytes -= p.bytes.count
                queuedEventBytes -= p.bytes.count
            } else {
                kept.append(p)
            }
        }
        frames = kept
    }

    /// Writes as much as `send` takes, in order.
    /// - Returns: false when the peer is gone (`send` threw or reported end of file).
    mutating func write(using send: (GatheredBytes) throws(SystemError) -> IOProgress) -> Bool {
        while let first = frames.first {
            let progress: IOProgress
            do {
                progress = try GatheredBytes.with(first.bytes.parts, from: offset, send)
            } catch {
                return false
            }
            switch progress {
            case .transferred(let n):
                offset += n
                queuedBytes -= n
                if offset == first.bytes.count {
                    if first.isEvent { queuedEventBytes -= first.bytes.count }
                    frames.removeFirst()
                    offset = 0
                }
            case .wouldBlock:
                return true
            case .endOfFile:
                return false
            }
        }
        return true
    }
}
