import CPickerCodecs
import Foundation
import PickerSystem

/// What a pool thread does: take the next job by class, run it, repeat.
extension WorkerPool {
    private enum Next {
        case helper(@Sendable () -> Void)
        case job(Job, background: Bool)
        case stop
    }

    func workLoop(lane: Bool) {
        while true {
            switch next(lane: lane) {
            case .stop:
                return
            case .helper(let fn):
                fn()
            case let .job(job, background):
                CancelFlag.with(job.cancel) { job.run() }
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
            if !state.interactive.isEmpty {
                return .job(state.interactive.removeFirst(), background: false)
            }
            if !lane, let job = nextImageJob() {
                return .job(job, background: false)
            }
            let now = monotonicNow()
            if !lane, let i = state.background.firstIndex(where: { $0.notBefore <= now }) {
                var job = state.background.remove(at: i).job
                let flag = job.cancel ?? CancelFlag()
                job.cancel = flag
                state.runningBackground[ObjectIdentifier(flag)] = flag
                return .job(job, background: true)
            }
            if state.stopping { return .stop }
            if !lane { state.idleWorkers += 1 }
            if !lane, let due = state.background.map(\.notBefore).min() {
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.001, due - now)))
            } else {
                condition.wait()
            }
            if !lane { state.idleWorkers -= 1 }
        }
    }

    /// The next image job, taking fairness keys in turn. Called with `condition` held.
    private func nextImageJob() -> Job? {
        guard !state.imageTurns.isEmpty else { return nil }
        let key = state.imageTurns.removeFirst()
        guard var queue = state.image[key], !queue.isEmpty else {
            state.image[key] = nil
            return nextImageJob()
        }
        let job = queue.removeFirst()
        if queue.isEmpty {
            state.image[key] = nil
        } else {
            state.image[key] = queue
            state.imageTurns.append(key)
        }
        return job
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
