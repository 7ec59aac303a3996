import Foundation
import PickerSystem
import Synchronization

/// Keeps the library current without anyone asking: scans it once in the background, then watches
/// every folder with inotify and rescans (a stat-only walk plus the headers of what changed) once
/// the folder has been quiet for the settle delay, so a photo still being copied is indexed once,
/// complete. Settling is per folder, and whole-tree scans for shape changes back off
/// (`WatchSettling`), so a file or folder that churns cannot hold back the rest of the library. Where inotify cannot serve (watches used up, or a network or FUSE file system) it
/// falls back to a periodic background rescan that spends at most about 5 % of one core.
/// When the library folder itself is deleted or moved away, the library becomes empty at once and
/// the folder is opened again by its path when something is there again (`LibraryRootTracker`).
/// No request ever waits for any of this.
public final class LibraryWatcher: @unchecked Sendable {
    /// Quiet time after the last event before a rescan.
    public static let settleMilliseconds: Int32 = 300
    /// Shortest time between fallback rescans.
    static let minimumPollSeconds = 10.0

    private let library: PhotoLibrary
    private let onRescan: @Sendable (LibraryUpdate) -> Void
    /// Where the index is kept between runs; nil: none (every start scans everything).
    private let indexDirectory: String?
    private var index: LibraryIndexStore?
    /// The library was served from the index: the first scan's differences are real changes.
    private var servedFromIndex = false
    private let inotify: Inotify?
    /// Watch descriptor → folder path relative to the root (for logs); rebuilt by each scan.
    private var watched: [Int32: String] = [:]
    /// Why inotify is not used (logged once), nil while it is.
    private var pollingReason: String?
    private let stopped = Atomic<Bool>(false)
    /// Whether the folder at the library path is still the one scanned.
    private var rootTracker: LibraryRootTracker

    /// - Parameters:
    ///   - indexDirectory: where the index is kept (`$XDG_CACHE_HOME/pickerd`), or nil.
    ///   - onRescan: called on the watcher's thread when the index is loaded and after every scan.
    public init(library: PhotoLibrary, indexDirectory: String?, onRescan: @escaping @Sendable (LibraryUpdate) -> Void) {
        self.library = library
        self.indexDirectory = indexDirectory
        self.onRescan = onRescan
        rootTracker = LibraryRootTracker(path: library.root)
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
        // Signals are for the daemon's signal sources, never this thread (a SIGTERM delivered here was
        // seen to be lost, and the daemon did not stop).
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        loadIndex()
        var lastScanSeconds = scan()
        var nextPoll = monotonicNow() + pollInterval(after: lastScanSeconds)
        // Per folder, not global: a file that never stops changing delays only its own folder.
        var settling = WatchSettling(settleSeconds: Double(Self.settleMilliseconds) / 1000)
        while !stopped.load(ordering: .relaxed) {
            index?.saveBroken(library.broken.takeUnsaved())
            if let change = rootTracker.rootChanged(now: monotonicNow()) {
                // Not after the settle delay: until this scan the old descriptor would still serve
                // a folder that is no longer at the library path.
                logRootChange(change)
                lastScanSeconds = scan()
                nextPoll = monotonicNow() + pollInterval(after: lastScanSeconds)
                settling.scannedEverything()
                continue
            }
            let timeout = Int32((settling.waitSeconds(at: monotonicNow(), cap: 1) * 1000).rounded(.up))
            if let inotify, inotify.wait(timeoutMilliseconds: timeout) {
                // Events of watches no longer held (removed by the last scan, or their folder gone
                // before it) were seen by that scan already.
                let events = inotify.drain().filter { $0.mask & Inotify.overflow != 0 || watched[$0.watch] != nil }
                let now = monotonicNow()
                for event in events {
                    if event.mask & Inotify.folderItselfGone != 0, watched[event.watch] == "" { rootTracker.checkSoon() }
                    if event.mask & Inotify.overflow != 0 {
                        Log.info("library watch: the kernel's event queue overflowed; rescanning")
                    }
                    if event.mask & Inotify.structural != 0 { settling.structuralEvent(at: now); continue }
                    if let folder = watched[event.watch] { settling.fileEvent(in: folder, at: now) } else { settling.structuralEvent(at: now) }
                }
            }
            let now = monotonicNow()
            let pollDue = pollingReason != nil && now >= nextPoll
            var due = settling.takeDue(at: now)
            if pollDue { due = .everything }
            switch due {
            case .nothing:
                continue
            case .folders(let folders):
                if rescan(folders: folders) { continue }
            case .everything:
                break
            }
            lastScanSeconds = scan()
            nextPoll = monotonicNow() + pollInterval(after: lastScanSeconds)
            settling.scannedEverything()
        }
    }

    /// Rescans only the files of `folders` (nothing else changed, inotify says).
    /// - Returns: false when that cannot be done (then the caller rescans everything).
    private func rescan(folders: Set<String>) -> Bool {
        let started = monotonicNow()
        guard let (snapshot, changes) = library.rescanFolders(folders) else { return false }
        index?.save(changes, photos: library.photosByPath)
        Log.info("library \(snapshot.rootRealPath): \(folders.count) folder(s) looked at again: \(changes.added.count) added, "
                 + "\(changes.removed.count) removed, \(changes.changed.count) changed, "
                 + "\(Int((monotonicNow() - started) * 1000)) ms")
        onRescan(LibraryUpdate(snapshot: snapshot, changes: changes, kind: .rescan))
        return true
    }

    /// Serves the saved index before the first scan, so a restart answers with the whole library at once.
    private func loadIndex() {
        guard let indexDirectory, let rootPath = try? FileSystem.realPath(library.root) else { return }
        let store = LibraryIndexStore(directory: indexDirectory, rootPath: rootPath, maxPixels: library.maxPixels)
        index = store
        let started = monotonicNow()
        guard let photos = store.load(), !photos.isEmpty, let snapshot = library.install(indexed: photos) else { return }
        library.broken.restore(store.loadBroken())
        Log.info("library \(snapshot.rootRealPath): \(snapshot.photoCount) photos loaded from the index in "
                 + "\(Int((monotonicNow() - started) * 1000)) ms; checking them against the disk")
        servedFromIndex = true
        onRescan(LibraryUpdate(snapshot: snapshot, changes: LibraryChangeSet(), kind: .loadedFromIndex))
    }

    /// A fallback rescan every 20 scan-times (≈ 5 % of a core), at least every `minimumPollSeconds`.
    private func pollInterval(after scanSeconds: Double) -> Double {
        max(Self.minimumPollSeconds, 20 * scanSeconds)
    }

    private func logRootChange(_ change: LibraryRootTracker.Change) {
        switch change {
        case .gone:
            Log.info("library \(library.root): the folder is gone (deleted or moved away); the library is empty "
                     + "until a folder is there again")
        case .replaced:
            Log.info("library \(library.root): another folder is at the library path; scanning it")
        }
    }

    /// Rescans from the library path, (re)watching every folder walked. Returns how long it took.
    private func scan() -> Double {
        let started = monotonicNow()
        let rootBefore = rootTracker.identityNow
        var seen: [Int32: String] = [:]
        var failure: SystemError?
        let kind: LibraryUpdate.Kind = library.snapshot.hasBeenScanned ? .rescan : servedFromIndex ? .indexChecked : .firstScan
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
        rootTracker.scanned(snapshot, before: rootBefore, now: monotonicNow())
        if let reason = pollingReason, seen.isEmpty == false || failure != nil {
            Log.error("library watch: \(reason); changes are found by a background rescan instead")
            for (wd, _) in seen { inotify?.unwatch(wd) }
            watched = [:]
        }
        let elapsed = monotonicNow() - started
        index?.save(changes, photos: library.photosByPath)  // before the log line: "scanned" means saved
        Log.info("library \(snapshot.rootRealPath) scanned: \(snapshot.photoCount) photos in \(snapshot.albumCount - 1) albums, "
                 + "\(changes.added.count) added, \(changes.removed.count) removed, \(changes.changed.count) changed, "
                 + "\(Int(elapsed * 1000)) ms\(pollingReason == nil ? ", \(watched.count) folders watched" : "")"
                 + (snapshot.scanError.map { " (\($0.message))" } ?? ""))
        onRescan(LibraryUpdate(snapshot: snapshot, changes: changes, kind: kind))
        // The scan's temporaries (file lists, outcomes, the old snapshot) are freed now: return them
        // (100,000 photos: RSS 76 → 60 MB at once, instead of at the server's next idle trim).
        FreeMemory.returnToSystem()
        return elapsed
    }
}

/// What the watcher hands the service after each step.
public struct LibraryUpdate: Sendable {
    public enum Kind: Sendable {
        /// The saved index was installed (no scan yet): the library is served from it.
        case loadedFromIndex
        /// The first scan of a library nothing was known of: every photo is new, none is announced.
        case firstScan
        /// The first scan after the index was served: the library is now checked against the disk;
        /// what differed is announced.
        case indexChecked
        /// A rescan after a change on disk: its changes are announced.
        case rescan
    }
    public var snapshot: LibrarySnapshot
    public var changes: LibraryChangeSet
    public var kind: Kind
}
