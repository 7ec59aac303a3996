import PickerEngine
import PickerProtocol
import Synchronization

/// Runs request work on the engine's worker pool, in the request's class (`RequestClass`).
///
/// Requests naming the same session run one at a time in arrival order (so they answer in order):
/// each session has a line, keyed by an internal id given when the line opens, and only the head
/// of a line is in the pool. A line whose head is interactive work goes to the interactive lane,
/// so a cheap request waits for nothing but its own session's earlier requests. Requests without
/// a session go to the pool directly. Image work is shared fairly by worker time (`FairQueue`) across
/// sessions, keyed by a hash of the session's name so that a client reconnecting for every request
/// keeps the cost of its earlier renders (a connection id would be new each time); an image request
/// the render cache can answer is sent to the interactive lane instead (no pixel work).
final class RequestScheduler: Sendable {
    private struct Work {
        var request: Request
        var kind: WorkClass
        var connection: UInt64
        var cancel: CancelFlag
        var run: @Sendable () -> Void
    }

    private struct Line {
        var id: UInt64
        var waiting: [Work] = []
    }

    private struct Lines {
        var byName: [String: Line] = [:]
        var nextID: UInt64 = 1
    }

    private let pool: WorkerPool
    private let handler: any RequestHandling
    private let lines = Mutex(Lines())

    init(handler: any RequestHandling) {
        self.pool = handler.pool
        self.handler = handler
    }

    /// Queues `run` for `request`; `cancel` is raised when the client cancels it.
    func submit(_ request: Request, kind: WorkClass, connection: UInt64, cancel: CancelFlag,
                _ run: @escaping @Sendable () -> Void) {
        let work = Work(request: request, kind: kind, connection: connection, cancel: cancel, run: run)
        guard let session = request.sessionName else {
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
            l.byName[session] = Line(id: l.nextID)
            l.nextID += 1
            return true
        }
        if startNow { start(work, session: session) }
    }

    /// Sessions with requests queued or running (for tests).
    var openLines: Int { lines.withLock { $0.byName.count } }

    private func start(_ work: Work, session: String? = nil) {
        let runThenNext: @Sendable () -> Void = { [self] in
            work.run()
            if let session { finished(session) }
        }
        guard work.kind == .image else {
            pool.submit(work.kind, fairnessKey: work.connection, cancel: work.cancel, runThenNext)
            return
        }
        // Ask the cache first, in the lane: a hit is answered there, a miss takes its turn as image work.
        pool.submit(.interactive, cancel: work.cancel) { [self] in
            if handler.answersFromCache(work.request) {
                runThenNext()
            } else {
                pool.submit(.image, fairnessKey: Self.fairnessKey(work), cancel: work.cancel, runThenNext)
            }
        }
    }

    /// Whose share an image request uses: its session's (FNV-1a of the name; a collision only
    /// makes two sessions share), else its connection's.
    private static func fairnessKey(_ work: Work) -> UInt64 {
        guard let session = work.request.sessionName else { return work.connection }
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
