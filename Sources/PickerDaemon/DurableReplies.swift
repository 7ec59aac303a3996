import PickerProtocol

/// A handler whose answers may reveal state that is not yet on disk (session changes): the
/// server asks it before sending each reply, so a reply is sent only once every change made
/// before it is durable, and kill -9 after a reply never loses what the reply said.
public protocol DurableReplies: Sendable {
    /// Runs `deliver` once every change made so far is durable (possibly at once, possibly
    /// on another thread). Must not block the caller.
    func whenDurable(_ deliver: @escaping @Sendable () -> Void)
}

extension EngineHandler: DurableReplies {
    func whenDurable(_ deliver: @escaping @Sendable () -> Void) {
        service.sessions.whenDurable(deliver)
    }
}

/// For handlers with nothing to make durable: replies go at once.
struct ImmediateReplies: DurableReplies {
    func whenDurable(_ deliver: @escaping @Sendable () -> Void) { deliver() }
}
