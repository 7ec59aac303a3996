/// When the library watcher rescans what inotify reported (see docs/ARCHITECTURE.md, "Watcher settling").
///
/// - Files settle per folder: a folder is looked at again once *it* has been quiet for the settle
///   delay, so a file rewritten every 100 ms in one folder never holds back a new photo in another.
/// - Changes to the tree's shape (subfolders made, moved, deleted; lost events) need a whole-tree
///   scan. Those settle too, and the delay doubles with each such scan in the last
///   `structuralMemorySeconds` (up to `maxStructuralSettleSeconds`), so a folder made and removed
///   every 350 ms costs a few scans, not one per cycle; a shape change still pending after
///   `maxStructuralWaitSeconds` is scanned anyway, so churn cannot hold back a new album forever.
struct WatchSettling {
    /// Quiet time after a folder's last event before its files are looked at again.
    let settleSeconds: Double
    static let structuralMemorySeconds = 10.0
    static let maxStructuralSettleSeconds = 4.8
    static let maxStructuralWaitSeconds = 5.0

    /// Folder (relative path) → time of its last event, for folders waiting to be looked at.
    private(set) var pendingFolders: [String: Double] = [:]
    /// First and last shape-changing event not yet scanned for.
    private var structuralFirst: Double?
    private var structuralLast: Double?
    /// When recent whole-tree scans for shape changes ran (for the backoff).
    private var structuralScans: [Double] = []

    init(settleSeconds: Double) {
        self.settleSeconds = settleSeconds
    }

    /// What is due now.
    enum Due: Equatable {
        case nothing
        /// Look again at the files of these folders.
        case folders(Set<String>)
        /// Scan the whole tree.
        case everything
    }

    mutating func fileEvent(in folder: String, at now: Double) { pendingFolders[folder] = now }

    mutating func structuralEvent(at now: Double) {
        if structuralFirst == nil { structuralFirst = now }
        structuralLast = now
    }

    /// The settle delay for shape changes now: doubled for each such scan lately.
    func structuralSettleSeconds(at now: Double) -> Double {
        let recent = structuralScans.filter { now - $0 < Self.structuralMemorySeconds }.count
        return min(Self.maxStructuralSettleSeconds, settleSeconds * Double(1 << min(recent, 8)))
    }

    /// What is due at `now`; takes it off the pending lists (the caller does it).
    mutating func takeDue(at now: Double) -> Due {
        if let first = structuralFirst, let last = structuralLast,
           now - last >= structuralSettleSeconds(at: now) || now - first >= Self.maxStructuralWaitSeconds {
            structuralScans = structuralScans.filter { now - $0 < Self.structuralMemorySeconds } + [now]
            scannedEverything()
            return .everything
        }
        let due = pendingFolders.filter { now - $0.value >= settleSeconds }.map(\.key)
        guard !due.isEmpty else { return .nothing }
        for folder in due { pendingFolders[folder] = nil }
        return .folders(Set(due))
    }

    /// A whole-tree scan ran (for any reason): nothing is pending any more.
    mutating func scannedEverything() {
        pendingFolders = [:]
        structuralFirst = nil
        structuralLast = nil
    }

    /// How long the watcher may wait for events before something falls due (capped at `cap`).
    func waitSeconds(at now: Double, cap: Double) -> Double {
        var next = cap
        for last in pendingFolders.values { next = min(next, last + settleSeconds - now) }
        if let first = structuralFirst, let last = structuralLast {
            next = min(next, last + structuralSettleSeconds(at: now) - now, first + Self.maxStructuralWaitSeconds - now)
        }
        return max(0, next)
    }
}
