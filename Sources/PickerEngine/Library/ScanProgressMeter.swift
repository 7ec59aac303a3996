import Dispatch
import PickerProtocol
import PickerSystem
import Synchronization

/// How far the running scan has got, for `scanProgress` and for progress events: a timer sends one
/// every 250 ms while a scan runs, and one saying ready when a scan that sent any ends (a rescan
/// after a change is shorter than that and sends none: the library events say what changed).
/// Files are counted from the header-reading workers, so the counter is atomic.
public final class ScanProgressMeter: Sendable {
    /// Time between two progress events.
    static let tickMilliseconds = 250

    private let done = Atomic<Int>(0)
    /// Which scan the pending timer belongs to (a timer of an ended scan does nothing).
    private let generation = Atomic<Int>(0)
    private let ticked = Atomic<Bool>(false)
    private let state = Mutex<(scanning: Bool, expected: Int, started: Double, finished: Double)>((false, 0, 0, 0))
    private let listener = Mutex<(@Sendable (ScanProgress) -> Void)?>(nil)

    public init() {}

    /// Where ticks go (the service sends them as events).
    public func onTick(_ f: @escaping @Sendable (ScanProgress) -> Void) { listener.withLock { $0 = f } }

    /// A scan starts; `expected` is the number of files of the last scan (0 if none).
    public func begin(expected: Int) {
        done.store(0, ordering: .relaxed)
        ticked.store(false, ordering: .relaxed)
        state.withLock { $0 = (true, expected, monotonicNow(), 0) }
        schedule(generation.add(1, ordering: .relaxed).newValue)
    }

    /// The walk has found every file: the real count replaces the estimate.
    public func walkFinished(files: Int) { state.withLock { $0.expected = files } }

    /// One file looked at (header read or record reused).
    public func fileDone() { done.add(1, ordering: .relaxed) }

    /// The scan ended (also when it failed): one last event, `ready`, if any was sent.
    public func end() {
        generation.add(1, ordering: .relaxed)
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

    private func schedule(_ scan: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Self.tickMilliseconds)) { [weak self] in
            guard let self, self.generation.load(ordering: .relaxed) == scan else { return }
            self.ticked.store(true, ordering: .relaxed)
            self.send()
            self.schedule(scan)
        }
    }

    private func send() {
        guard let f = listener.withLock({ $0 }) else { return }
        f(current)
    }
}
