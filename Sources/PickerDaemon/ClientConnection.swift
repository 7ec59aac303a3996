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
    /// Whether EPOLLIN / EPOLLOUT are currently registered.
    var reading = true
    var wantsWrite = false
    /// Close once the output is flushed.
    var closeAfterFlush = false
    /// When the unfinished frame now buffered began arriving (monotonic seconds).
    var partialSince: Double?
    private var output: [[UInt8]] = []
    private var outputOffset = 0
    private(set) var queuedBytes = 0

    init(id: UInt64, fd: Int32, capabilities: Capabilities) {
        self.id = id
        self.fd = fd
        self.state = ConnectionState(capabilities: capabilities)
    }

    var hasPendingOutput: Bool { !output.isEmpty }

    func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(bytes)
        queuedBytes += bytes.count
    }

    /// Writes as much as the socket takes. Returns false when the peer is gone.
    func flush() -> Bool {
        while let first = output.first {
            let progress: IOProgress
            do {
                progress = try first.withRawBytes { raw throws(SystemError) in
                    try FileDescriptorIO.send(fd, UnsafeRawBufferPointer(rebasing: raw[outputOffset...]))
                }
            } catch {
                return false
            }
            switch progress {
            case .transferred(let n):
                outputOffset += n
                queuedBytes -= n
                if outputOffset == first.count {
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
