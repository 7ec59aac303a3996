import PickerProtocol

/// A handler whose answers may reveal state that is not yet on disk (session changes): the
/// server asks it before sending each reply, so a reply to a change is sent only once every
/// change made before it is durable, and kill -9 after a reply never loses what the reply said.
/// A reply that changed nothing waits for no fsync: only for its own session's replies still
/// waiting (replies on one session keep their order).
public protocol DurableReplies: Sendable {
    /// Runs `deliver` when the reply of a request so planned may go (possibly at once, possibly
    /// on another thread). Must not block the caller.
    func whenDurable(_ plan: RequestPlan, _ deliver: @escaping @Sendable () -> Void)
}

extension EngineHandler: DurableReplies {
    func whenDurable(_ plan: RequestPlan, _ deliver: @escaping @Sendable () -> Void) {
        service.sessions.whenDurable(session: plan.session, changes: plan.needsDurability, deliver)
    }
}

/// For handlers with nothing to make durable: replies go at once.
struct ImmediateReplies: DurableReplies {
    func whenDurable(_ plan: RequestPlan, _ deliver: @escaping @Sendable () -> Void) { deliver() }
}
