import PickerProtocol
import PickerSystem

/// A connected client as the socket thread sees it: descriptor, protocol state and
/// unsent output. Touched only on the socket thread.
final class ClientConnection {
    let id: UInt64
    let fd: Int32
    var state: ConnectionState
    /// Requests dispatched and not yet answered.
    var inFlight = 0
    /// Their cancel tokens, by request id.
    var tokens: [UInt32: CancelToken] = [:]
    /// Requests read but not yet handed to workers, in arrival order (see `Server.startParked`).
    var parked: [Parked] = []
    /// Image requests handed to workers and not yet answered.
    var imageWorkRunning = 0

    struct Parked {
        var id: UInt32
        var request: Request
        var token: CancelToken
    }
    /// Whether EPOLLIN / EPOLLOUT are currently registered.
    var reading = true
    var wantsWrite = false
    /// Close once the output is flushed.
    var closeAfterFlush = false
    /// When the unfinished frame now buffered began arriving (monotonic seconds).
    var partialSince: Double?
    /// The subscription id whose events were dropped for being unread; its late events are skipped.
    var droppedSubscription: UInt32?
    private var output: [Pending] = []
    private var outputOffset = 0
    private(set) var queuedBytes = 0
    /// Unsent bytes that are events (as opposed to replies), which the event cap bounds.
    private(set) var queuedEventBytes = 0

    private struct Pending {
        var bytes: [UInt8]
        var isEvent: Bool
    }

    init(id: UInt64, fd: Int32, capabilities: Capabilities) {
        self.id = id
        self.fd = fd
        self.state = ConnectionState(capabilities: capabilities)
    }

    var hasPendingOutput: Bool { !output.isEmpty }

    func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(Pending(bytes: bytes, isEvent: false))
        queuedBytes += bytes.count
    }

    /// Queues an event unless that would put more than `limit` bytes of events in the queue.
    /// One event is always accepted when none is queued, so a large one still goes out.
    /// - Returns: false when the event was refused (the subscriber is too far behind).
    func enqueueEvent(_ bytes: [UInt8], limit: Int) -> Bool {
        guard queuedEventBytes == 0 || queuedEventBytes + bytes.count <= limit else { return false }
        output.append(Pending(bytes: bytes, isEvent: true))
        queuedBytes += bytes.count
        queuedEventBytes += bytes.count
        return true
    }

    /// Forgets every queued event not yet begun (a frame partly written stays, to keep framing).
    func discardUnsentEvents() {
        var kept: [Pending] = []
        for (i, p) in output.enumerated() {
            if p.isEvent && !(i == 0 && outputOffset > 0) {
                queuedBytes -= p.bytes.count
                queuedEventBytes -= p.bytes.count
            } else {
                kept.append(p)
            }
        }
        output = kept
    }

    /// Writes as much as the socket takes. Returns false when the peer is gone.
    func flush() -> Bool {
        while let first = output.first {
            let progress: IOProgress
            do {
                progress = try first.bytes.withRawBytes { raw throws(SystemError) in
                    try FileDescriptorIO.send(fd, UnsafeRawBufferPointer(rebasing: raw[outputOffset...]))
                }
            } catch {
                return false
            }
            switch progress {
            case .transferred(let n):
                outputOffset += n
                queuedBytes -= n
                if outputOffset == first.bytes.count {
                    if first.isEvent { queuedEventBytes -= first.bytes.count }
                    output.removeFirst()
                    outputOffset = 0
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
