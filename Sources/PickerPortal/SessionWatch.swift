import PickerClient
import PickerProtocol

/// One request's own event connection to pickerd, subscribed to the request's session: how the
/// portal hears the session finished (accepted, cancelled) or closed, whichever client did it
/// (pick in the terminal, `pickerctl accept`, an editor). Subscribed before any window opens.
final class SessionWatch {
    let connection: PickerConnection
    let session: String

    /// How the session ended, as far as the request is concerned.
    enum End: Equatable {
        case accepted
        case cancelled
        case closed
    }

    init(socketPath: String, session: String) throws(ClientError) {
        connection = try PickerConnection(socketPath: socketPath, clientName: "pickerd-portal")
        self.session = session
        _ = try connection.call(.subscribe(Subscription(session: session, library: false)))
    }

    var descriptor: Int32 { connection.descriptor }

    /// Reads what arrived (the socket is readable) and returns the first end among it, in arrival
    /// order; nil when none came. A lost connection ends the request as closed.
    func readEnd() -> End? {
        var frames: [Frame] = []
        do {
            frames.append(try connection.nextFrame())
            while let more = try connection.bufferedFrame() { frames.append(more) }
        } catch {
            return .closed
        }
        for frame in frames where frame.isEvent {
            guard case let .session(change, state)? = try? Event(frame: frame), state.name == session else { continue }
            switch change {
            case .accepted: return .accepted
            case .cancelled: return .cancelled
            case .closed: return .closed
            default: continue
            }
        }
        return nil
    }
}
