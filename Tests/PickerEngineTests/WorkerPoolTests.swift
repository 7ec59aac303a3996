import Foundation
@testable import PickerEngine
import Synchronization
import Testing

/// The fixed worker pool: classes, fairness, fork/join, cancellation of background work.
/// Waits below are for completion (with a generous bound that only turns a hang into a failure),
/// never assertions on how long something took.
@Suite struct WorkerPoolTests {
    /// A one-shot gate a job can wait on.
    final class Gate: Sendable {
        private let condition = NSCondition()
        private let open = Mutex(false)

        func release() {
            condition.lock()
            open.withLock { $0 = true }
            condition.broadcast()
            condition.unlock()
        }

        /// True once released; false if `seconds` passed first (a hang).
        @discardableResult
        func wait(seconds: Double = 30) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while !open.withLock({ $0 }) {
                if !condition.wait(until: deadline) { return open.withLock { $0 } }
            }
            return true
        }
    }

    @Test func forEachRunsEveryIndexOnceWithoutStartedThreads() {
        let pool = WorkerPool(workers: 2)
        let seen = Mutex<[Int]>([])
        pool.forEach(100) { i in seen.withLock { $0.append(i) } }
        #expect(seen.withLock { $0.sorted() } == Array(0..<100))
        #expect(pool.threadCount == 0, "an engine used without a daemon starts no threads")
    }

    @Test func forEachInsideAJobOnABusyPoolRunsInlineInsteadOfWaitingForASlot() {
        let pool = WorkerPool(workers: 1)
        defer { pool.shutdown() }
        let done = Gate()
        let count = Mutex(0)
        // The only worker runs this job and forks: no idle worker exists, so it must do all itself.
        pool.submit(.image) {
            pool.forEach(50) { _ in count.withLock { $0 += 1 } }
            done.release()
        }
        #expect(done.wait(), "a fork inside the only worker must not deadlock")
        #expect(count.withLock { $0 } == 50)
    }

    @Test func interactiveWorkRunsWhileEveryWorkerIsBusyWithImageWork() {
        let pool = WorkerPool(workers: 1)
        defer { pool.shutdown() }
        let blocker = Gate(), interactiveDone = Gate()
        pool.submit(.image) { blocker.wait() }
        pool.submit(.image) { blocker.wait() }
        pool.submit(.interactive) { interactiveDone.release() }
        #expect(interactiveDone.wait(), "interactive work waited for image work")
        blocker.release()
    }

    @Test func imageWorkTakesFairnessKeysInTurn() {
        let pool = WorkerPool(workers: 1)
        defer { pool.shutdown() }
        let blocker = Gate(), allDone = Gate()
        let order = Mutex<[UInt64]>([])
        pool.submit(.image, fairnessKey: 9) { blocker.wait() }
        // Client 1 pipelines four requests before client 2 sends two.
        for key: UInt64 in [1, 1, 1, 1, 2, 2] {
            pool.submit(.image, fairnessKey: key) {
                let n = order.withLock { o -> Int in o.append(key); return o.count }
                if n == 6 { allDone.release() }
            }
        }
        blocker.release()
        #expect(allDone.wait())
        #expect(order.withLock { $0 } == [1, 2, 1, 2, 1, 1])
    }

    @Test func runningBackgroundWorkIsCancelledWhenImageWorkWaits() {
        let pool = WorkerPool(workers: 1)
        defer { pool.shutdown() }
        let started = Gate(), sawCancel = Gate(), imageDone = Gate()
        pool.submit(.background) {
            started.release()
            // Stands for a prefetch decode: checks its flag between batches.
            let deadline = Date(timeIntervalSinceNow: 30)
            while !CancelFlag.currentIsRaised && Date() < deadline { usleep(1000) }
            if CancelFlag.currentIsRaised { sawCancel.release() }
        }
        #expect(started.wait())
        pool.submit(.image) { imageDone.release() }
        #expect(sawCancel.wait(), "the background job was not told to stop")
        #expect(imageDone.wait())
    }

    @Test func backgroundWorkWaitsWhileForegroundWorkIsQueued() {
        let pool = WorkerPool(workers: 1)
        defer { pool.shutdown() }
        let blocker = Gate(), allDone = Gate()
        let order = Mutex<[String]>([])
        pool.submit(.image) { blocker.wait() }
        pool.submit(.background) {
            order.withLock { $0.append("background") }
            allDone.release()
        }
        pool.submit(.image) { order.withLock { $0.append("image") } }
        blocker.release()
        #expect(allDone.wait())
        #expect(order.withLock { $0 } == ["image", "background"])
    }

    @Test func theCancelFlagIsCurrentOnForkedHelpersToo() {
        let pool = WorkerPool(workers: 2)
        defer { pool.shutdown() }
        let flag = CancelFlag()
        flag.raise()
        let done = Gate()
        let seenRaised = Mutex(0)
        pool.submit(.image, cancel: flag) {
            pool.forEach(8) { _ in
                if CancelFlag.currentIsRaised { seenRaised.withLock { $0 += 1 } }
            }
            done.release()
        }
        #expect(done.wait())
        #expect(seenRaised.withLock { $0 } == 8)
    }

    @Test func thePoolRunsWorkersPlusOneInteractiveLane() {
        let pool = WorkerPool(workers: 3)
        defer { pool.shutdown() }
        let done = Gate()
        let count = Mutex(0)
        for _ in 0..<200 {
            pool.submit(.image) { if count.withLock({ $0 += 1; return $0 }) == 200 { done.release() } }
        }
        #expect(done.wait())
        #expect(pool.threadCount == 4)
    }
}
