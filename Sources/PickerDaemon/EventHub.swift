import PickerProtocol
import Synchronization

/// Who listens to what: each connection's subscription, and the fan-out of events to them.
final class EventHub: Sendable {
    private struct Listener {
        var subscribeID: UInt32
        var subscription: Subscription
    }

    private let listeners = Mutex<[UInt64: Listener]>([:])
    private let mailbox: ReplyMailbox

    init(mailbox: ReplyMailbox) {
        self.mailbox = mailbox
    }

    /// Replaces the connection's subscription (an empty one removes it).
    func subscribe(connection: UInt64, id: UInt32, _ subscription: Subscription) {
        listeners.withLock {
            if subscription.session == nil && !subscription.library {
                $0[connection] = nil
            } else {
                $0[connection] = Listener(subscribeID: id, subscription: subscription)
            }
        }
    }

    func remove(connection: UInt64) {
        listeners.withLock { $0[connection] = nil }
    }

    /// Ends the connection's subscription if it is still the one with this id.
    func remove(connection: UInt64, subscription id: UInt32) {
        listeners.withLock {
            if $0[connection]?.subscribeID == id { $0[connection] = nil }
        }
    }

    /// Queues the event for every connection subscribed to it. Called from workers, in the
    /// order changes happen on a session, and before the reply that caused it.
    func publish(_ event: Event) {
        let targets: [(UInt64, UInt32)] = listeners.withLock { all in
            all.compactMap { conn, l in
                switch event {
                case .session(_, let state):
                    return l.subscription.session == state.name ? (conn, l.subscribeID) : nil
                case .library, .libraryChanges, .scanProgress, .unknown:
                    return l.subscription.library ? (conn, l.subscribeID) : nil
                }
            }
        }
        for (conn, id) in targets {
            mailbox.post(.init(connection: conn, bytes: FrameBytes(event.frame(subscriptionID: id).encoded()), reply: nil,
                                subscription: id))
        }
    }
}
