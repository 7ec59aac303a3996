import CPickerCodecs
import Foundation
import PickerSystem

/// What a pool thread does: take the next job by class, run it, repeat.
extension WorkerPool {
    private enum Next {
        case helper(@Sendable () -> Void)
        case job(Job, background: Bool, imageKey: UInt64?)
        case stop
    }

    func workLoop(lane: Bool) {
        while true {
            switch next(lane: lane) {
            case .stop:
                return
            case .helper(let fn):
                fn()
            case let .job(job, background, imageKey):
                let started = monotonicNow()
                CancelFlag.with(job.cancel) { job.run() }
                if let imageKey {
                    let took = monotonicNow() - started
                    condition.lock()
                    state.image.charge(imageKey, seconds: took)
                    condition.unlock()
                }
                if background, let flag = job.cancel {
                    condition.lock()
                    state.runningBackground[ObjectIdentifier(flag)] = nil
                    condition.unlock()
                }
            }
        }
    }

    /// Waits for the next thing this thread may run.
    private func next(lane: Bool) -> Next {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !lane, !state.helpers.isEmpty {
                state.promisedHelpers -= 1
                return .helper(state.helpers.removeFirst())
            }
            // Interactive work is the lane's while it is free: a general worker runs at a lower
            // priority, and on a busy machine a cache hit answered there waited for the CPU
            // (1–2 ms where the lane takes 0.2). Workers take it only when the lane is busy.
            if !state.interactive.isEmpty && (lane || !state.laneWaiting) {
                if lane { state.laneWaiting = false }
                return .job(state.interactive.removeFirst(), background: false, imageKey: nil)
            }
            if !lane, let (key, job) = state.image.pop(now: monotonicNow()) {
                return .job(job, background: false, imageKey: key)
            }
            let now = monotonicNow()
            if !lane, let i = state.background.firstIndex(where: { $0.notBefore <= now }) {
                var job = state.background.remove(at: i).job
                let flag = job.cancel ?? CancelFlag()
                job.cancel = flag
                state.runningBackground[ObjectIdentifier(flag)] = flag
                return .job(job, background: true, imageKey: nil)
            }
            if state.stopping { return .stop }
            if !lane { state.idleWorkers += 1 } else { state.laneWaiting = true }
            if !lane, let due = state.background.map(\.notBefore).min() {
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.001, due - now)))
            } else {
                condition.wait()
            }
            if !lane { state.idleWorkers -= 1 }
        }
    }

    /// Lets C decoders on this thread run their resampler on an idle worker (pk_work.h).
    func installHelperHook() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        pk_helper_use({ context, fn, arg in
            guard let context, let fn else { return 0 }
            let pool = Unmanaged<WorkerPool>.fromOpaque(context).takeUnretainedValue()
            let call = CCall(fn: fn, arg: arg)
            return pool.tryHelper { call.fn(call.arg) } ? 1 : 0
        }, context)
    }
}

/// A C callback and its argument, handed to another pool thread; the C side keeps `arg` alive
/// until the call has returned (pk_feed_stop waits for it).
private struct CCall: @unchecked Sendable {
    var fn: @convention(c) (UnsafeMutableRawPointer?) -> Void
    var arg: UnsafeMutableRawPointer?
}
