import Foundation
import PickerProtocol

/// One byte budget shared by every decode and render job in the daemon, so that concurrent
/// image work cannot add up past a bound: a job reserves its estimated bytes before it starts,
/// waits while the budget is exhausted, and gives them back on every path when it ends.
///
/// Waiters are served in arrival order, so a large job is not starved by a stream of small ones.
/// A small job (at most 1/16 of the budget) may pass the waiting ones when it fits in what the
/// first waiter leaves free, so a pane-sized `get-image` does not queue behind 8192² previews;
/// jobs let through that way never hold more than `capacity − first waiter's bytes` together,
/// so the first waiter still gets in once the large jobs ahead of it finish.
/// A job larger than the whole budget can never run and is refused at once with `image_too_large`.
public final class WorkBudget: Sendable {
    /// The bytes all running jobs may hold together.
    public let capacity: Int
    /// Jobs up to this size may pass waiting ones.
    public var smallJobBytes: Int { capacity / 16 }
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private nonisolated(unsafe) var state = State()

    private struct State {
        var inUse = 0
        /// The part of `inUse` held by small jobs that passed waiting ones.
        var passedInUse = 0
        var nextTicket: UInt64 = 0
        /// Waiting jobs in arrival order.
        var waiting: [(ticket: UInt64, bytes: Int)] = []
    }

    public init(capacityBytes: Int) {
        capacity = max(1, capacityBytes)
    }

    /// Bytes currently reserved (for logs and tests).
    public var reservedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.inUse
    }

    /// Jobs waiting for room (for tests).
    var waitingJobs: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.waiting.count
    }

    /// Runs `body` holding `bytes` of the budget, waiting for them first.
    ///
    /// - Parameters:
    ///   - bytes: the job's estimated peak memory.
    ///   - what: names the job in the refusal message (e.g. the photo).
    /// - Throws: `.imageTooLarge` when `bytes` exceeds the whole budget; whatever `body` throws.
    public func withReservation<T>(_ bytes: Int, for what: String,
                                   _ body: () throws(PickerError) -> T) throws(PickerError) -> T {
        let amount = max(0, bytes)
        guard amount <= capacity else {
            throw PickerError(.imageTooLarge,
                              "\(what): this job needs about \(Self.mib(amount)) MiB of memory, more than the daemon's whole image budget of \(Self.mib(capacity)) MiB (pickerd --memory-mb)")
        }
        let passed = acquire(amount)
        defer { release(amount, passed: passed) }
        return try body()
    }

    /// Blocks until `amount` is granted. Returns whether the job passed waiting ones.
    private func acquire(_ amount: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let ticket = state.nextTicket
        state.nextTicket += 1
        state.waiting.append((ticket, amount))
        while true {
            let fits = state.inUse + amount <= capacity
            guard let first = state.waiting.first else { break }
            if first.ticket == ticket && fits {
                state.waiting.removeFirst()
                state.inUse += amount
                // The next waiter may fit as well.
                condition.broadcast()
                return false
            }
            if first.ticket != ticket && fits && amount <= smallJobBytes
                && state.passedInUse + amount <= capacity - first.bytes {
                state.waiting.removeAll { $0.ticket == ticket }
                state.inUse += amount
                state.passedInUse += amount
                return true
            }
            condition.wait()
        }
        // Unreachable: this job is in `waiting` until it is granted.
        state.inUse += amount
        return false
    }

    private func release(_ amount: Int, passed: Bool) {
        condition.lock()
        state.inUse -= amount
        if passed { state.passedInUse -= amount }
        condition.broadcast()
        condition.unlock()
    }

    /// Rounded up to MiB; saturating, since a refused estimate may be Int.max.
    private static func mib(_ bytes: Int) -> Int { PixelCount.sum(bytes, (1 << 20) - 1) >> 20 }
}
