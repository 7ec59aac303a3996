import CPickerSys
import PickerProtocol
import PickerSystem
import Synchronization

/// Where worker threads leave finished replies for the socket thread, which they wake through an eventfd.
final class ReplyMailbox: Sendable {
    struct Delivery: Sendable {
        var connection: UInt64
        var bytes: FrameBytes
        /// The request this answers; nil for an event.
        var reply: UInt32?
        /// For an event, the id of the subscription it was sent for.
        var subscription: UInt32? = nil
        /// Whether it answers an image request (the connection counts those running).
        var imageWork = false
    }

    let wakeFD: Int32
    private let pending = Mutex<[Delivery]>([])

    init() throws(SystemError) {
        wakeFD = try retryingInterrupts("eventfd") { pk_eventfd() }
    }

    deinit { FileDescriptorIO.close(wakeFD) }

    func post(_ delivery: Delivery) {
        pending.withLock { $0.append(delivery) }
        wake()
    }

    func wake() {
        _ = pk_eventfd_signal(wakeFD)
    }

    /// Resets the wake, then takes what was posted: anything posted after the reset wakes the
    /// loop again. Whatever else the loop takes on a wake (`Server.takeAdoptions`) must be taken
    /// after this, for the same reason.
    func drain() -> [Delivery] {
        _ = pk_eventfd_drain(wakeFD)
        return pending.withLock { box in
            let out = box
            box.removeAll(keepingCapacity: true)
            return out
        }
    }
}
