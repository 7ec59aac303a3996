import PickerEngine
import PickerProtocol

/// What the server loop needs from the engine: answer one decoded request, and the pool to run it on.
public protocol RequestHandling: Sendable {
    /// Called on the pool's threads, never on the socket thread.
    func handle(_ request: Request) -> Reply
    /// The fixed pool request work runs on (`RequestScheduler`).
    var pool: WorkerPool { get }
    /// Whether an image request would be answered from the render cache (no pixel work), so it may
    /// run in the interactive lane instead of queueing behind decodes. A guess: may be stale.
    func answersFromCache(_ request: Request) -> Bool
}

extension RequestHandling {
    public func answersFromCache(_ request: Request) -> Bool { false }
}
