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

    @Test func imageWorkOfEqualCostTakesFairnessKeysInTurn() {
        var queue = FairQueue<String>()
        // Client 1 pipelines four requests before client 2 sends two; each job is charged alike.
        for (key, item) in [(1, "a1"), (1, "a2"), (1, "a3"), (1, "a4"), (2, "b1"), (2, "b2")] {
            queue.push(item, key: UInt64(key))
        }
        var order: [String] = []
        while let (key, item) = queue.pop() {
            order.append(item)
            queue.charge(key, seconds: 0.1)
        }
        #expect(order == ["a1", "b1", "a2", "b2", "a3", "a4"])
    }

    @Test func aClientWhoseJobsUsedMoreWorkerTimeWaitsForALighterOne() {
        var queue = FairQueue<String>()
        for item in ["heavy1", "heavy2", "heavy3"] { queue.push(item, key: 1) }
        for item in ["light1", "light2", "light3"] { queue.push(item, key: 2) }
        var order: [String] = []
        while let (key, item) = queue.pop() {
            order.append(item)
            queue.charge(key, seconds: key == 1 ? 2.0 : 0.05)
        }
        #expect(order == ["heavy1", "light1", "light2", "light3", "heavy2", "heavy3"])
    }

    @Test func aClientBackFromIdleBanksNoCredit() {
        var queue = FairQueue<String>()
        queue.push("old", key: 1)
        if let (key, _) = queue.pop() { queue.charge(key, seconds: 0.01) }
        // Client 2 works for a long time alone; then client 1 comes back with two jobs.
        for i in 0..<5 {
            queue.push("busy\(i)", key: 2)
            if let (key, _) = queue.pop() { queue.charge(key, seconds: 1) }
        }
        queue.push("busy5", key: 2)
        queue.push("back1", key: 1)
        queue.push("back2", key: 1)
        var order: [String] = []
        while let (key, item) = queue.pop() {
            order.append(item)
            queue.charge(key, seconds: 1)
        }
        // Not both of client 1's jobs first (it did not bank the 5 s it was idle).
        #expect(order.prefix(2).contains("busy5"), "\(order)")
    }

    @Test func aStreamOfNewClientsDoesNotStarveAnOldOne() {
        var queue = FairQueue<String>()
        queue.push("old1", key: 1)
        queue.push("old2", key: 1)
        var order: [String] = []
        var next: UInt64 = 100
        // A new connection every time (clients that reconnect for each request), each 1 s of work.
        for _ in 0..<50 {
            queue.push("new", key: next)
            next += 1
            guard let (key, item) = queue.pop() else { break }
            order.append(item)
            queue.charge(key, seconds: 1)
            if !order.contains("old2") && item == "old2" { break }
        }
        #expect(order.contains("old2"), "the old client's second job never ran: \(order)")
    }

    @Test func aJobThatWaitedTheLongestAllowedGoesFirstWhateverItsKeyUsed() {
        var queue = FairQueue<String>()
        queue.push("heavy0", key: 1, now: 0)
        queue.push("heavy1", key: 1, now: 0)
        queue.push("light1", key: 2, now: 1)
        queue.push("light2", key: 2, now: 1)
        if let (key, item) = queue.pop(now: 1) {
            #expect(item == "heavy0")
            queue.charge(key, seconds: 100)
        }
        // Before the limit the light client goes first; once heavy1 has waited maxWait, it does.
        #expect(queue.pop(now: 2)?.item == "light1")
        #expect(queue.pop(now: FairQueue<String>.maxWait)?.item == "heavy1")
        #expect(queue.pop(now: FairQueue<String>.maxWait)?.item == "light2")
    }

    @Test func theImageQueueOfThePoolIsFairAcrossKeys() {
        let pool = WorkerPool(workers: 1)
        defer { pool.shutdown() }
        let blocker = Gate(), allDone = Gate()
        let order = Mutex<[UInt64]>([])
        pool.submit(.image, fairnessKey: 9) { blocker.wait() }
        for key: UInt64 in [1, 1, 1, 2] {
            pool.submit(.image, fairnessKey: key) {
                let n = order.withLock { o -> Int in o.append(key); return o.count }
                if n == 4 { allDone.release() }
            }
        }
        blocker.release()
        #expect(allDone.wait())
        // Client 2's one request does not wait for all of client 1's.
        #expect(order.withLock { $0.prefix(2).sorted() } == [1, 2], "\(order.withLock { $0 })")
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
