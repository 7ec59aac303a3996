import PickerProtocol
import PickerSystem
import Synchronization

/// Renders ahead while the user looks: when a session's current photo changes and stays for
/// `dwellSeconds`, its next and previous photos are rendered at the session's pane size into the
/// render cache, in the background class (only when no foreground work waits; stopped when some
/// arrives). A newly selected album gets the cells of its first thumbnail page the same way.
///
/// It learns of changes from the service's session events (`observe`), so the service needs one
/// hook, and remembers each session's last `get-image` output (format, quality, cells) so that the
/// prefetched result is the one the client will ask for.
final class Prefetcher: Sendable {
    static let dwellSeconds = 0.1

    private let pool: WorkerPool
    private let enabled: Bool
    private let service = Mutex<WeakService>(WeakService())
    /// Per session name: a counter bumped on every change, so a job for an older photo gives up.
    private let generations = Mutex<[String: UInt64]>([:])
    private let wanted = Mutex<[String: OutputSpec]>([:])

    init(pool: WorkerPool, enabled: Bool) {
        self.pool = pool
        self.enabled = enabled
    }

    func attach(_ service: PickerService) {
        self.service.withLock { $0.value = service }
    }

    /// Remembers what a session's client asks `get-image` for.
    func noteImageRequest(session: String, output: OutputSpec) {
        guard enabled else { return }
        wanted.withLock { $0[session] = output }
    }

    /// Every session event passes here (the service's one hook).
    func observe(_ event: Event) {
        guard enabled, case let .session(change, state) = event else { return }
        switch change {
        case .photo:
            schedule(state.name) { service, name in service.prefetchNeighbours(of: name) }
        case .album:
            schedule(state.name) { service, name in service.prefetchFirstThumbnailPage(of: name) }
        case .closed:
            generations.withLock { $0[state.name] = nil }
            wanted.withLock { $0[state.name] = nil }
        default:
            return
        }
    }

    /// What to render for a session's photos (the last `get-image`'s, else pickerctl's default).
    func wantedOutput(for session: String) -> OutputSpec {
        wanted.withLock { $0[session] } ?? OutputSpec(format: .png, quality: 100)
    }

    /// Whether a job started for `generation` may go on.
    func isCurrent(_ session: String, _ generation: UInt64) -> Bool {
        generations.withLock { $0[session] } == generation && !CancelFlag.currentIsRaised
    }

    private func schedule(_ session: String,
                          _ work: @escaping @Sendable (PickerService, String) -> (UInt64) -> Void) {
        let generation = generations.withLock { g -> UInt64 in
            let next = (g[session] ?? 0) &+ 1
            g[session] = next
            return next
        }
        pool.submit(.background, after: Self.dwellSeconds) { [self] in
            guard isCurrent(session, generation), let service = service.withLock({ $0.value }) else { return }
            work(service, session)(generation)
        }
    }
}

/// The service, unowned by the prefetcher (the service owns the prefetcher).
struct WeakService: @unchecked Sendable {
    weak var value: PickerService?
}
