import PickerEngine
import PickerProtocol
import Synchronization

/// Runs request work on the engine's worker pool, in the request's class (`RequestClass`).
///
/// Requests naming the same session run one at a time in arrival order (so they answer in order):
/// each session has a line, keyed by the session's name, and only the head of a line is in the pool. A line whose head is interactive work goes to the interactive lane,
/// so a cheap request waits for nothing but its own session's earlier requests. Requests without
/// a session go to the pool directly. Image work is shared fairly by worker time (`FairQueue`) across
/// sessions, keyed by a hash of the session's name so that a client reconnecting for every request
/// keeps the cost of its earlier renders (a connection id would be new each time). An image request
/// is first prepared in the interactive lane (`RequestHandling.prepare`: its render plan and the
/// cache's answer, worked out once); one that needs no pixel work is answered there, the rest take
/// their turn as image work with the same plan.
final class RequestScheduler: Sendable {
    private struct Work {
        var request: Request
        var plan: RequestPlan
        var connection: UInt64
        var cancel: CancelFlag
        var run: @Sendable (PreparedRequest) -> Void
    }

    private struct Line {
        var waiting: [Work] = []
    }

    private struct Lines {
        var byName: [String: Line] = [:]
    }

    private let pool: WorkerPool
    private let handler: any RequestHandling
    private let lines = Mutex(Lines())

    init(handler: any RequestHandling) {
        self.pool = handler.pool
        self.handler = handler
    }

    /// Queues `run` for `request`; `cancel` is raised when the client cancels it. `run` gets what
    /// the handler prepared for image work (`.unplanned` for the rest).
    func submit(_ request: Request, plan: RequestPlan, connection: UInt64, cancel: CancelFlag,
                _ run: @escaping @Sendable (PreparedRequest) -> Void) {
        let work = Work(request: request, plan: plan, connection: connection, cancel: cancel, run: run)
        guard let session = plan.session else {
            start(work)
            return
        }
        // Start it now only when the session's line was empty; otherwise it waits its turn.
        let startNow = lines.withLock { l -> Bool in
            if var line = l.byName[session] {
                line.waiting.append(work)
                l.byName[session] = line
                return false
            }
            l.byName[session] = Line()
            return true
        }
        if startNow { start(work, session: session) }
    }

    /// Sessions with requests queued or running (for tests).
    var openLines: Int { lines.withLock { $0.byName.count } }

    private func start(_ work: Work, session: String? = nil) {
        let runThenNext: @Sendable (PreparedRequest) -> Void = { [self] prepared in
            work.run(prepared)
            if let session { finished(session) }
        }
        let kind = RequestClass(work.plan).workClass
        guard kind == .image else {
            pool.submit(kind, fairnessKey: work.connection, cancel: work.cancel) { runThenNext(.unplanned) }
            return
        }
        // Plan it first, in the lane: what needs no pixels is answered there, the rest takes its
        // turn as image work with the same plan.
        pool.submit(.interactive, cancel: work.cancel) { [self] in
            let prepared = handler.prepare(work.request)
            if prepared.needsPixelWork {
                pool.submit(.image, fairnessKey: Self.fairnessKey(work), cancel: work.cancel) { runThenNext(prepared) }
            } else {
                runThenNext(prepared)
            }
        }
    }

    /// Whose share an image request uses: its session's (FNV-1a of the name; a collision only
    /// makes two sessions share), else its connection's.
    private static func fairnessKey(_ work: Work) -> UInt64 {
        guard let session = work.plan.session else { return work.connection }
        var h: UInt64 = 0xcbf29ce484222325
        for b in session.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }

    /// The head of a session's line is done: start the next, or close the line.
    private func finished(_ session: String) {
        let next = lines.withLock { l -> Work? in
            guard var line = l.byName[session] else { return nil }
            guard !line.waiting.isEmpty else {
                l.byName[session] = nil
                return nil
            }
            let work = line.waiting.removeFirst()
            l.byName[session] = line
            return work
        }
        if let next { start(next, session: session) }
    }
}
