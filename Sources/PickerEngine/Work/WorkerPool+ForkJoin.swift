import CPickerCodecs
import Foundation
import Synchronization

extension WorkerPool {
    /// Runs `body(0..<count)` on the calling thread and on idle workers, and returns when all are done.
    ///
    /// Helpers are only taken when a worker is idle at that moment: the caller never waits for a slot
    /// (it does the rest itself), so a job that forks cannot deadlock the pool. The caller's cancel
    /// flag is current on the helpers too.
    public func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let batch = ForkJoinBatch(count: count, body: body, cancel: CurrentFlag(raw: pk_cancel_current()))
        // At most workers − 1 helpers: with the caller that makes `workers` busy threads.
        for _ in 0..<min(count - 1, workers - 1) {
            if !tryHelper({ batch.drain() }) { break }
        }
        batch.drain()
        batch.waitUntilDone()
    }
}

/// The caller's C cancel flag, alive while the caller waits for the batch (see `forEach`).
struct CurrentFlag: @unchecked Sendable {
    var raw: OpaquePointer?
}

/// One parallel loop: indices are claimed one at a time by whoever runs `drain`.
final class ForkJoinBatch: Sendable {
    private let count: Int
    private let body: @Sendable (Int) -> Void
    private let cancel: CurrentFlag
    private let claimed = Atomic<Int>(0)
    private let finished = Mutex<Int>(0)
    private let condition = NSCondition()

    init(count: Int, body: @escaping @Sendable (Int) -> Void, cancel: CurrentFlag) {
        self.count = count
        self.body = body
        self.cancel = cancel
    }

    func drain() {
        let previous = pk_cancel_current()
        pk_cancel_use(cancel.raw)
        defer { pk_cancel_use(previous) }
        while true {
            let i = claimed.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < count else { return }
            body(i)
            let done = finished.withLock { n in
                n += 1
                return n == count
            }
            if done {
                condition.lock()
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    func waitUntilDone() {
        condition.lock()
        while finished.withLock({ $0 }) < count { condition.wait() }
        condition.unlock()
    }
}
