import PickerProtocol
import PickerSystem
import Synchronization

/// How far the running scan has got, for `scanProgress` and for ~4 progress events a second.
/// Files are counted from the header-reading workers, so the counter is atomic; the rest changes
/// once or twice a scan and sits behind one lock.
public final class ScanProgressMeter: Sendable {
    /// Shortest time between two progress events.
    static let tickMilliseconds = 250

    private let done = Atomic<Int>(0)
    private let nextTick = Atomic<Int>(0)
    /// A tick went out during this scan: the end is announced too. A scan shorter than one tick
    /// (a rescan after a change) announces nothing: the library events say what changed.
    private let ticked = Atomic<Bool>(false)
    private let state = Mutex<(scanning: Bool, expected: Int, started: Double, finished: Double)>((false, 0, 0, 0))
    private let listener = Mutex<(@Sendable (ScanProgress) -> Void)?>(nil)

    public init() {}

    /// Where ticks go (the service sends them as events).
    public func onTick(_ f: @escaping @Sendable (ScanProgress) -> Void) { listener.withLock { $0 = f } }

    /// A scan starts; `expected` is the number of files of the last scan (0 if none).
    func begin(expected: Int) {
        done.store(0, ordering: .relaxed)
        ticked.store(false, ordering: .relaxed)
        let now = monotonicNow()
        nextTick.store(Int(now * 1000) + Self.tickMilliseconds, ordering: .relaxed)
        state.withLock { $0 = (true, expected, now, 0) }
    }

    /// The walk has found every file: the real count replaces the estimate.
    func walkFinished(files: Int) { state.withLock { $0.expected = files } }

    /// One file looked at (header read or record reused); sends a tick when one is due.
    func fileDone() {
        done.add(1, ordering: .relaxed)
        let now = Int(monotonicNow() * 1000)
        let due = nextTick.load(ordering: .relaxed)
        guard now >= due,
              nextTick.compareExchange(expected: due, desired: now + Self.tickMilliseconds, ordering: .relaxed).exchanged
        else { return }
        ticked.store(true, ordering: .relaxed)
        send()
    }

    /// The scan ended (also when it failed): one last tick, `ready`, if any was sent.
    func end() {
        state.withLock { $0.scanning = false; $0.finished = monotonicNow() }
        if ticked.load(ordering: .relaxed) { send() }
    }

    /// The progress now.
    public var current: ScanProgress {
        let s = state.withLock { $0 }
        let elapsed = (s.scanning ? monotonicNow() : s.finished) - s.started
        return ScanProgress(state: s.scanning ? .scanning : .ready, filesDone: done.load(ordering: .relaxed),
                            filesExpected: s.expected, elapsedMilliseconds: max(0, Int(elapsed * 1000)))
    }

    private func send() {
        guard let f = listener.withLock({ $0 }) else { return }
        f(current)
    }
}
