import PickerEngine
import PickerProtocol

/// What the server loop needs from the engine: answer one decoded request, and the pool to run it on.
public protocol RequestHandling: Sendable {
    /// Called on the pool's threads, never on the socket thread.
    func handle(_ request: Request) -> Reply
    /// The fixed pool request work runs on (`RequestScheduler`).
    var pool: WorkerPool { get }
}
