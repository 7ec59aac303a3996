import Foundation
import PickerSystem
import Synchronization

/// Keeps the library current without anyone asking: scans it once in the background, then watches
/// every folder with inotify and rescans (a stat-only walk plus the headers of what changed) once
/// the folder has been quiet for the settle delay, so a photo still being copied is indexed once,
/// complete. Where inotify cannot serve (watches used up, or a network or FUSE file system) it
/// falls back to a periodic background rescan that spends at most about 5 % of one core.
/// No request ever waits for any of this.
public final class LibraryWatcher: @unchecked Sendable {
    /// Quiet time after the last event before a rescan.
    public static let settleMilliseconds: Int32 = 300
    /// Shortest time between fallback rescans.
    static let minimumPollSeconds = 10.0

    private let library: PhotoLibrary
    private let onRescan: @Sendable (LibrarySnapshot, LibraryChangeSet) -> Void
    private let inotify: Inotify?
    /// Watch descriptor → folder path relative to the root (for logs); rebuilt by each scan.
    private var watched: [Int32: String] = [:]
    /// Why inotify is not used (logged once), nil while it is.
    private var pollingReason: String?
    private let stopped = Atomic<Bool>(false)

    /// - Parameter onRescan: called on the watcher's thread after every scan with the new snapshot
    ///   and what changed (the first scan reports every photo as added).
    public init(library: PhotoLibrary, onRescan: @escaping @Sendable (LibrarySnapshot, LibraryChangeSet) -> Void) {
        self.library = library
        self.onRescan = onRescan
        do throws(SystemError) {
            inotify = try Inotify()
        } catch {
            inotify = nil
            pollingReason = "inotify is unavailable (\(error))"
        }
    }

    /// Starts the first scan and the watch loop on a thread of their own.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "library-watcher"
        thread.start()
    }

    /// Ends the loop within about a second.
    public func stop() { stopped.store(true, ordering: .relaxed) }

    private func run() {
        var lastScanSeconds = scan()
        var nextPoll = monotonicNow() + pollInterval(after: lastScanSeconds)
        var pending = false
        var lastEvent = 0.0
        while !stopped.load(ordering: .relaxed) {
            let timeout: Int32 = pending ? Self.settleMilliseconds : 1000
            if let inotify, inotify.wait(timeoutMilliseconds: timeout) {
                let events = inotify.drain()
                if !events.isEmpty {
                    pending = true
                    lastEvent = monotonicNow()
                    if events.contains(where: { $0.mask & Inotify.overflow != 0 }) {
                        Log.info("library watch: the kernel's event queue overflowed; rescanning")
                    }
                }
                continue
            }
            let now = monotonicNow()
            let settled = pending && (now - lastEvent) * 1000 >= Double(Self.settleMilliseconds)
            let pollDue = pollingReason != nil && now >= nextPoll
            guard settled || pollDue else { continue }
            pending = false
            lastScanSeconds = scan()
            nextPoll = monotonicNow() + pollInterval(after: lastScanSeconds)
        }
    }

    /// A fallback rescan every 20 scan-times (≈ 5 % of a core), at least every `minimumPollSeconds`.
    private func pollInterval(after scanSeconds: Double) -> Double {
        max(Self.minimumPollSeconds, 20 * scanSeconds)
    }

    /// Rescans, (re)watching every folder walked. Returns how long it took.
    private func scan() -> Double {
        let started = monotonicNow()
        var seen: [Int32: String] = [:]
        var failure: SystemError?
        let (snapshot, changes) = library.rescan { [self] fd, relative in
            guard let inotify, pollingReason == nil, failure == nil else { return }
            if relative.isEmpty, FileSystem.isRemoteOrFuse(fd) {
                pollingReason = "the library is on a network or FUSE file system"
                return
            }
            do throws(SystemError) {
                seen[try inotify.watch(folder: fd)] = relative
            } catch {
                failure = error
            }
        }
        if let failure, pollingReason == nil {
            pollingReason = failure.errno.rawValue == ENOSPC
                ? "inotify watches are used up (raise fs.inotify.max_user_watches)" : "inotify: \(failure)"
        }
        if let inotify {
            for (wd, _) in watched where seen[wd] == nil { inotify.unwatch(wd) }
        }
        watched = seen
        if let reason = pollingReason, seen.isEmpty == false || failure != nil {
            Log.error("library watch: \(reason); changes are found by a background rescan instead")
            for (wd, _) in seen { inotify?.unwatch(wd) }
            watched = [:]
        }
        let elapsed = monotonicNow() - started
        Log.info("library \(snapshot.rootRealPath) scanned: \(snapshot.photoCount) photos in \(snapshot.albumCount - 1) albums, "
                 + "\(changes.added.count) added, \(changes.removed.count) removed, \(changes.changed.count) changed, "
                 + "\(Int(elapsed * 1000)) ms\(pollingReason == nil ? ", \(watched.count) folders watched" : "")")
        onRescan(snapshot, changes)
        return elapsed
    }
}
