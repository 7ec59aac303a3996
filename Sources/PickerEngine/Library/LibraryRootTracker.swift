import PickerSystem

/// Notices when the folder at the configured library path is no longer the one that was scanned:
/// deleted, moved away, replaced by another folder, or back after being gone.
///
/// The scan reads through a root descriptor, which keeps pointing at the folder it opened even
/// after that folder is renamed elsewhere or deleted; inotify's "the folder itself went" events
/// are not enough either (nothing is watched while the path is empty, and a network file system
/// sends none). So the path is looked at again by `stat` about once a second: one call, cheap.
/// Comparing device and inode is enough: while the served snapshot holds the old folder's
/// descriptor, that inode stays allocated, so a folder made anew at the path cannot get its number.
struct LibraryRootTracker {
    /// How often the path is looked at while nothing else asks for it.
    static let intervalSeconds = 1.0

    /// The library path as configured (symlinks in it are followed, as when the root is opened).
    let path: String
    /// What was at the path when the library was last scanned; nil: nothing was there.
    private var scannedIdentity: FileIdentity?
    private var nextCheck = 0.0

    init(path: String) {
        self.path = path
    }

    /// What is at the path now (taken just before a full scan, for `scanned(_:before:)`).
    var identityNow: FileIdentity? { RootDirectory.identity(atPath: path) }

    /// Records what a full scan served: its root descriptor's folder, or, when the root could not
    /// be opened, whatever was at the path just before (so an unopenable file there is not retried
    /// every second).
    mutating func scanned(_ snapshot: LibrarySnapshot, before: FileIdentity?, now: Double) {
        scannedIdentity = snapshot.rootDirectory?.status.identity ?? before
        nextCheck = now + Self.intervalSeconds
    }

    /// Asks for a look at the path at the next `rootChanged(now:)` (inotify said the root folder
    /// itself was deleted or moved).
    mutating func checkSoon() { nextCheck = 0 }

    /// How the folder at the path differs from the one last scanned.
    enum Change: Equatable {
        /// Nothing is there now (deleted, moved away, unmounted).
        case gone
        /// Another folder is there (moved back, recreated, a symlink pointed elsewhere).
        case replaced
    }

    /// When it is time to look: how the folder at the path differs from the one last scanned, if
    /// it does. Then the library must be scanned again from the path (empty while nothing is there).
    mutating func rootChanged(now: Double) -> Change? {
        guard now >= nextCheck else { return nil }
        nextCheck = now + Self.intervalSeconds
        let current = identityNow
        guard current != scannedIdentity else { return nil }
        return current == nil ? .gone : .replaced
    }
}
