import PickerEngine
import Synchronization

/// The life of one dispatched request, shared between the socket thread (which may cancel it)
/// and the worker (which starts and finishes it). Transitions are atomic, so exactly one side wins.
/// Cancelling a running request raises its `flag`, which the decode loops check once per batch.
final class CancelToken: Sendable {
    enum Outcome: UInt8 {
        case waiting = 0, running = 1, finished = 2, cancelled = 3, superseded = 4
    }

    private let state = Atomic<UInt8>(Outcome.waiting.rawValue)
    /// Current on the worker while the request runs (see `CancelFlag`).
    let flag = CancelFlag()

    /// The worker is about to start. False when it was cancelled or superseded while waiting.
    func begin() -> Bool {
        state.compareExchange(expected: Outcome.waiting.rawValue, desired: Outcome.running.rawValue,
                              ordering: .acquiringAndReleasing).exchanged
    }

    /// The worker is done. False when the client cancelled it meanwhile: its result is stale.
    func finish() -> Bool {
        state.compareExchange(expected: Outcome.running.rawValue, desired: Outcome.finished.rawValue,
                              ordering: .acquiringAndReleasing).exchanged
    }

    /// The client cancels it, waiting or running. True when it was still in flight.
    func cancel() -> Bool {
        for from in [Outcome.waiting, .running] {
            if state.compareExchange(expected: from.rawValue, desired: Outcome.cancelled.rawValue,
                                     ordering: .acquiringAndReleasing).exchanged {
                flag.raise()
                return true
            }
        }
        return false
    }

    /// A newer image request on the same session replaces this one, if it has not started.
    func supersede() {
        _ = state.compareExchange(expected: Outcome.waiting.rawValue, desired: Outcome.superseded.rawValue,
                                  ordering: .acquiringAndReleasing)
    }

    var outcome: Outcome { Outcome(rawValue: state.load(ordering: .acquiring)) ?? .waiting }
}
