import Foundation
import PickerSystem

/// Makes session changes durable off the request path, with group commit: one thread writes
/// (a journal record or the sessions file, see `SessionPersistence`), and every change made while
/// a write runs goes out together in the next one, so 64 clients toggling cost a few rounds, not
/// 64 queued ones. Once the writer has been idle `idleDelay`, it runs `idle` (the journal's fold).
///
/// Changes are numbered by the store (under its lock, with the snapshot they belong to). A
/// caller that must not speak before its change is safe asks `whenDurable`: its closure runs
/// once every change made so far is on disk — on the writer thread, so no worker waits.
final class SessionCommitter<Round: Sendable>: Sendable {
    /// What to write as of change number `sequence` (nil: nothing can be written).
    typealias Snapshot = @Sendable () -> (sequence: UInt64, round: Round?)
    /// Writes the round durably; throws what failed.
    typealias Persist = @Sendable (Round) throws -> Void

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private nonisolated(unsafe) var state = State()
    private let snapshot: Snapshot
    private let persist: Persist
    private let idle: @Sendable () -> Void
    /// How long the writer waits with nothing to write before `idle` runs, in seconds.
    private let idleDelay: Double
    /// The file, as named in logs.
    private let fileShown: String

    private struct State {
        /// The number of the latest change made in memory.
        var changed: UInt64 = 0
        /// The number of the latest change on disk (or given up on, when the write failed).
        var durable: UInt64 = 0
        var waiters: [Waiter] = []
        /// How many waiters each session has (a reply that changed nothing waits only behind these).
        var waitingBySession: [String: Int] = [:]
        var stopping = false
        var finished = false
        /// Write rounds done (each one file write + fsync), for tests and logs.
        var rounds = 0
        /// The longest round, in seconds (logged at shutdown: what a change's reply waited at most).
        var slowestRound = 0.0
    }

    private struct Waiter {
        var sequence: UInt64
        var session: String?
        var deliver: @Sendable () -> Void
    }

    /// - Parameter idle: run on the writer thread after a round once no change came for
    ///   `idleDelay` seconds, and at `finish` after the last round.
    init(file: String, snapshot: @escaping Snapshot, persist: @escaping Persist,
         idle: @escaping @Sendable () -> Void = {}, idleDelay: Double = 0.25) {
        self.fileShown = file
        self.snapshot = snapshot
        self.persist = persist
        self.idle = idle
        self.idleDelay = idleDelay
    }

    /// Starts the writer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "session-writer"
        thread.start()
    }

    /// Change number `sequence` was made in memory: write it soon.
    func changed(_ sequence: UInt64) {
        condition.lock()
        state.changed = max(state.changed, sequence)
        condition.signal()
        condition.unlock()
    }

    /// Runs `deliver` once every change made before this call is durable (`changes`), or, for a
    /// reply that changed nothing, once the earlier waiters of its `session` have run (at once
    /// when there are none: it waits for no fsync). At once when nothing is pending, else on the
    /// writer thread after the round that writes it. Deliveries that wait keep the order of these
    /// calls (replies on one session must not overtake each other), so they run under the lock
    /// and must be short (a mailbox post).
    func whenDurable(session: String? = nil, changes: Bool = true, _ deliver: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        let behindOwnSession = session.map { state.waitingBySession[$0, default: 0] > 0 } ?? false
        let pending = changes ? state.changed > state.durable || !state.waiters.isEmpty : behindOwnSession
        guard pending && !state.finished else {
            deliver()
            return
        }
        let after = max(changes ? state.changed : 0, state.waiters.last?.sequence ?? 0)
        state.waiters.append(Waiter(sequence: after, session: session, deliver: deliver))
        if let session { state.waitingBySession[session, default: 0] += 1 }
    }

    /// Writes what is pending, then ends the thread (shutdown). Returns once the last write is done.
    func finish() {
        condition.lock()
        state.stopping = true
        condition.broadcast()
        while !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Write rounds so far.
    var rounds: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.rounds
    }

    private func run() {
        // Signals are for the daemon's signal sources, never this thread.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        var idleDue = false
        while true {
            switch waitForWork(idleDue: idleDue) {
            case .round:
                writeRound()
                idleDue = true
            case .idle:
                idle()
                idleDue = false
            case .stop:
                if idleDue { idle() }
                markFinished()
                return
            }
        }
    }

    private func writeRound() {
        let began = ProcessInfo.processInfo.systemUptime
        let (sequence, round) = snapshot()
        if let round {
            do {
                try persist(round)
            } catch {
                // Replies are not held forever for a full disk: the failure is logged, the old file stays.
                Log.error("saving sessions to \(fileShown) failed (\(error)); the previous file is kept")
            }
        }
        markDurable(sequence, took: ProcessInfo.processInfo.systemUptime - began)
    }

    private enum Work { case round, idle, stop }

    /// Waits until a change is pending (`.round`), `idleDelay` passed with none while `idleDue`
    /// (`.idle`), or the store is stopping with none left (`.stop`).
    private func waitForWork(idleDue: Bool) -> Work {
        condition.lock()
        defer { condition.unlock() }
        let idleAt = Date(timeIntervalSinceNow: idleDelay)
        while state.changed <= state.durable {
            if state.stopping { return .stop }
            if idleDue {
                if !condition.wait(until: idleAt) && state.changed <= state.durable && !state.stopping { return .idle }
            } else {
                condition.wait()
            }
        }
        return .round
    }

    private func markFinished() {
        condition.lock()
        defer { condition.unlock() }
        state.finished = true
        Log.info("session writer: \(state.rounds) write round(s) for \(state.changed) change(s), slowest \(Int(state.slowestRound * 1000)) ms")
        condition.broadcast()
    }

    /// Records that changes up to `sequence` are on disk and runs the deliveries now due, in order.
    private func markDurable(_ sequence: UInt64, took seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        state.durable = max(state.durable, sequence)
        state.rounds += 1
        state.slowestRound = max(state.slowestRound, seconds)
        let durable = state.durable
        let due = state.waiters.prefix { $0.sequence <= durable }
        state.waiters.removeFirst(due.count)
        for waiter in due {
            if let session = waiter.session {
                let left = state.waitingBySession[session, default: 1] - 1
                state.waitingBySession[session] = left > 0 ? left : nil
            }
            waiter.deliver()
        }
    }
}
