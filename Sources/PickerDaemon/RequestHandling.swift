import PickerProtocol

/// What the server loop needs from the engine: answer one decoded request.
/// Called on worker threads, never on the socket thread.
public protocol RequestHandling: Sendable {
    func handle(_ request: Request) -> Reply
}
