import PickerEngine
import PickerProtocol

/// What the server loop needs from the engine: answer one decoded request, and the pool to run it on.
public protocol RequestHandling: Sendable {
    /// Called on the pool's threads, never on the socket thread.
    func handle(_ request: Request) -> Reply
    /// The fixed pool request work runs on (`RequestScheduler`).
    var pool: WorkerPool { get }
    /// Works out an image request before it is queued (its render plan and the cache's answer),
    /// in the interactive lane: one that needs no pixel work is answered there instead of
    /// queueing behind decodes. Called for image work only, on the pool's threads.
    func prepare(_ request: Request) -> PreparedRequest
    /// Answers a request with what `prepare` worked out (`.unplanned` when it was not asked).
    func handle(_ request: Request, prepared: PreparedRequest) -> Reply
}

extension RequestHandling {
    public func prepare(_ request: Request) -> PreparedRequest { .unplanned }
    public func handle(_ request: Request, prepared: PreparedRequest) -> Reply { handle(request) }
}
