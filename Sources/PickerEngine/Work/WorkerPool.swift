import CPickerCodecs
import CPickerSys
import Foundation
import PickerSystem

/// The daemon's one fixed pool of threads for request work: `workers` general threads (image,
/// interactive and background work, and helpers of parallel loops) plus one lane that runs only
/// interactive work, so a cheap session request never waits for a decode to end.
/// Threads start on the first submitted job (an engine used without a daemon starts none).
///
/// Order on a general worker: helpers of running jobs, interactive, image (fair over fairness keys
/// by worker time used, `FairQueue`), background (when due and nothing else waits).
public final class WorkerPool: @unchecked Sendable {
    /// The nice value image work runs at, in these threads and in the decoder processes
    /// (`DecoderWorker`): below the socket thread, the lane and the session writer.
    static let imageWorkNice: Int32 = 10

    /// One unit of work and the flag that cancels it.
    struct Job {
        var run: @Sendable () -> Void
        var cancel: CancelFlag?
    }

    struct DelayedJob {
        var job: Job
        var notBefore: Double
    }

    /// Queues and counters, guarded by `condition`.
    struct State {
        var helpers: [@Sendable () -> Void] = []
        var interactive: [Job] = []
        var image = FairQueue<Job>()
        var background: [DelayedJob] = []
        /// Cancel flags of the background jobs running now.
        var runningBackground: [ObjectIdentifier: CancelFlag] = [:]
        var idleWorkers = 0
        /// The interactive lane is waiting for work (it takes interactive jobs before the workers).
        var laneWaiting = false
        /// Helpers queued and not yet picked up: each has an idle worker promised to it.
        var promisedHelpers = 0
        var started = false
        var stopping = false
        var threadsAlive = 0
    }

    /// General workers (`pickerd --workers`); the interactive lane comes on top.
    public let workers: Int
    let condition = NSCondition()
    /// Guarded by `condition`.
    var state = State()

    public init(workers: Int) {
        self.workers = max(1, workers)
    }

    /// The number of cores this process may run on (the default for `--workers`).
    public static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Queues a job in its class. `fairnessKey` (for image work) names whose share it uses, e.g. the
    /// connection; `cancel` becomes the running thread's current flag.
    public func submit(_ kind: WorkClass, fairnessKey: UInt64 = 0, cancel: CancelFlag? = nil,
                       after delay: Double = 0, _ run: @escaping @Sendable () -> Void) {
        let job = Job(run: run, cancel: cancel)
        condition.lock()
        startIfNeeded()
        switch kind {
        case .interactive:
            state.interactive.append(job)
        case .image:
            state.image.push(job, key: fairnessKey, now: monotonicNow())
            // Foreground work waits for a worker: background work makes room at once.
            if state.idleWorkers <= state.promisedHelpers {
                for flag in state.runningBackground.values { flag.raise() }
            }
        case .background:
            state.background.append(DelayedJob(job: job, notBefore: monotonicNow() + max(0, delay)))
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `fn` on an idle general worker and returns true, or returns false at once when none is idle.
    /// Never waits for a worker: a caller that gets false does the work itself.
    func tryHelper(_ fn: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard state.started, state.idleWorkers > state.promisedHelpers else { return false }
        state.helpers.append(fn)
        state.promisedHelpers += 1
        condition.broadcast()
        return true
    }

    /// Whether foreground work is queued (background jobs check this between steps).
    public var foregroundWaiting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !state.interactive.isEmpty || !state.image.isEmpty
    }

    /// Lets the threads finish what is queued and end (tests; the daemon exits instead).
    public func shutdown() {
        condition.lock()
        state.stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Threads of the pool alive now (for tests and the soak's thread count).
    public var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.threadsAlive
    }

    /// Starts the threads now (else the first submitted job does).
    public func start() {
        condition.lock()
        startIfNeeded()
        condition.unlock()
    }

    /// Called with `condition` held.
    private func startIfNeeded() {
        guard !state.started else { return }
        state.started = true
        for i in 0..<workers { spawn(name: "pk-worker-\(i)", lane: false) }
        spawn(name: "pk-interactive", lane: true)
    }

    private func spawn(name: String, lane: Bool) {
        state.threadsAlive += 1
        let thread = Thread { [self] in
            ThreadName.setCurrent(name)
            // Workers run below the socket thread and the lane: under a pile of decodes those still get
            // the CPU at once. The lane keeps normal priority: its work is short, and it must not lose
            // the CPU to other processes' work either.
            if !lane { pk_lower_thread_priority(Self.imageWorkNice) }
            if !lane { installHelperHook() }
            workLoop(lane: lane)
            condition.lock()
            state.threadsAlive -= 1
            condition.unlock()
        }
        thread.start()
    }
}
