import Foundation
import Synchronization
import Testing

/// Bounds how many tests run heavy children (a debug pickerd, tmux, Xvfb + xterm) at once. Swift
/// Testing starts every async test together: with no bound, one run started 141 debug daemons on two
/// cores (load 88) and tests failed from the overload, not from anything they tested.
///
/// A slot belongs to a test, not to a process: a test that already holds one gets its second daemon
/// (or its tmux) at once, so a test needing two children never waits on itself or deadlocks with
/// another. Waiting here is not charged to any deadline: every wait in the tests starts its clock
/// after the child has started, and the child starts only once the slot is granted.
final class ChildSlots: Sendable {
    /// `PICKER_TEST_SLOTS` when set, else max(2, active cores).
    static let shared = ChildSlots(count: configuredCount())

    static func configuredCount() -> Int {
        if let text = ProcessInfo.processInfo.environment["PICKER_TEST_SLOTS"], let n = Int(text), n > 0 { return n }
        return max(2, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Who holds what, and who waits (first come, first served).
    private struct State {
        var free: Int
        var holds: [Test.ID?: Int] = [:]
        var waiting: [(owner: Test.ID?, resume: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    let count: Int

    init(count: Int) {
        self.count = count
        state = Mutex(State(free: count))
    }

    /// A held slot; give it back with `release()` (once; later calls do nothing).
    final class Slot: Sendable {
        private let owner: Test.ID?
        private let slots: ChildSlots
        private let released = Atomic<Bool>(false)

        fileprivate init(owner: Test.ID?, slots: ChildSlots) {
            self.owner = owner
            self.slots = slots
        }

        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            slots.giveBack(owner)
        }

        deinit { release() }
    }

    /// Waits until the current test may run a heavy child.
    func acquire() async -> Slot {
        let owner = Test.current?.id
        await withCheckedContinuation { (granted: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if let held = s.holds[owner], held > 0 {
                    s.holds[owner] = held + 1
                    return true
                }
                guard s.free > 0 else {
                    s.waiting.append((owner, granted))
                    return false
                }
                s.free -= 1
                s.holds[owner] = 1
                return true
            }
            if now { granted.resume() }
        }
        return Slot(owner: owner, slots: self)
    }

    /// One hold of `owner` ends; its last frees the slot for the first waiting test (and for that
    /// test's other waiters: the cases of one parameterised test share it).
    private func giveBack(_ owner: Test.ID?) {
        let wake = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            let held = (s.holds[owner] ?? 1) - 1
            guard held <= 0 else {
                s.holds[owner] = held
                return []
            }
            s.holds[owner] = nil
            guard let next = s.waiting.first else {
                s.free += 1
                return []
            }
            let same = s.waiting.filter { $0.owner == next.owner }
            s.waiting.removeAll { $0.owner == next.owner }
            s.holds[next.owner] = same.count
            return same.map(\.resume)
        }
        wake.forEach { $0.resume() }
    }
}
