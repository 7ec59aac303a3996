import Foundation
import PickerProtocol

/// One byte budget shared by every decode and render job in the daemon, so that concurrent
/// image work cannot add up past a bound: a job reserves its estimated bytes before it starts,
/// waits while the budget is exhausted, and gives them back on every path when it ends.
///
/// Waiters are served in arrival order, so a large job is not starved by a stream of small ones.
/// A job larger than the whole budget can never run and is refused at once with `image_too_large`.
public final class WorkBudget: Sendable {
    /// The bytes all running jobs may hold together.
    public let capacity: Int
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private nonisolated(unsafe) var inUse = 0
    private nonisolated(unsafe) var nextTicket: UInt64 = 0
    private nonisolated(unsafe) var serving: UInt64 = 0

    public init(capacityBytes: Int) {
        capacity = max(1, capacityBytes)
    }

    /// Bytes currently reserved (for logs and tests).
    public var reservedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return inUse
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
        acquire(amount)
        defer { release(amount) }
        return try body()
    }

    private func acquire(_ amount: Int) {
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        while serving != ticket || inUse + amount > capacity {
            condition.wait()
        }
        inUse += amount
        serving += 1
        condition.broadcast()
        condition.unlock()
    }

    private func release(_ amount: Int) {
        condition.lock()
        inUse -= amount
        condition.broadcast()
        condition.unlock()
    }

    private static func mib(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }
}
