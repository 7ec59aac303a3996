import PickerProtocol
import PickerSystem
import Synchronization

/// How far the running scan has got, for `scanProgress` and for progress events: one at most every
/// 250 ms while a scan runs, and one saying ready when a scan that sent any ends (a rescan after a
/// change is shorter than that and sends none: the library events say what changed).
/// Files are counted from the header-reading workers, so the counter is atomic; the worker that
/// counts the first file after 250 ms sends the tick (no timer thread: the daemon's threads are its
/// fixed pool, and a scan that makes no progress has no news).
public final class ScanProgressMeter: Sendable {
    /// Time between two progress events.
    static let tickMilliseconds = 250

    private let done = Atomic<Int>(0)
    /// When the last tick was sent (or the scan began), in milliseconds of `monotonicNow`.
    private let lastTick = Atomic<Int>(0)
    private let scanning = Atomic<Bool>(false)
    private let ticked = Atomic<Bool>(false)
    private let state = Mutex<(scanning: Bool, expected: Int, started: Double, finished: Double)>((false, 0, 0, 0))
    /// In a struct: a bare closure in a `Mutex` gains two reabstraction thunks per `withLock`.
    private struct Listener { let f: @Sendable (ScanProgress) -> Void }
    private let listener = Mutex<Listener?>(nil)

    public init() {}

    /// Where ticks go (the service sends them as events).
    public func onTick(_ f: @escaping @Sendable (ScanProgress) -> Void) { listener.withLock { $0 = Listener(f: f) } }

    /// A scan starts; `expected` is the number of files of the last scan (0 if none).
    public func begin(expected: Int) {
        done.store(0, ordering: .relaxed)
        ticked.store(false, ordering: .relaxed)
        let now = monotonicNow()
        state.withLock { $0 = (true, expected, now, 0) }
        lastTick.store(Int(now * 1000), ordering: .relaxed)
        scanning.store(true, ordering: .releasing)
    }

    /// The walk found one more file: it counts as time passing, not as a file done, so a walk
    /// longer than a tick (stat of every file on a rescan) already sends progress.
    public func walking() { tickIfDue() }

    /// The walk has found every file: the real count replaces the estimate.
    public func walkFinished(files: Int) { state.withLock { $0.expected = files } }

    /// One file looked at (header read or record reused).
    public func fileDone() {
        done.add(1, ordering: .relaxed)
        tickIfDue()
    }

    /// The scan ended (also when it failed): one last event, `ready`, if any was sent. A scan
    /// longer than a tick whose counted work was quicker (the time went to sorting and assembling,
    /// where nothing counts) sends its one `scanning` event now, so every long scan is reported.
    public func end() {
        if !ticked.load(ordering: .relaxed), scanning.load(ordering: .acquiring),
           Int(monotonicNow() * 1000) - lastTick.load(ordering: .relaxed) >= Self.tickMilliseconds {
            ticked.store(true, ordering: .relaxed)
            send()
        }
        scanning.store(false, ordering: .releasing)
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

    /// Sends a tick when one is due; of several counting threads exactly one wins it.
    private func tickIfDue() {
        guard scanning.load(ordering: .acquiring) else { return }
        let now = Int(monotonicNow() * 1000)
        let last = lastTick.load(ordering: .relaxed)
        guard now - last >= Self.tickMilliseconds,
              lastTick.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged else { return }
        ticked.store(true, ordering: .relaxed)
        send()
    }

    private func send() {
        guard let f = listener.withLock({ $0 })?.f else { return }
        f(current)
    }
}
