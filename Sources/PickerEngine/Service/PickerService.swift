import CPickerCodecs
import PickerProtocol
import PickerSystem
import Synchronization

/// The engine's front door: answers each protocol request from the library, the sessions
/// and the renderer. Thread-safe; the daemon calls it from worker threads.
public final class PickerService: Sendable {
    public let configuration: EngineConfiguration
    public let library: PhotoLibrary
    public let sessions: SessionStore
    public let cache: RenderCache
    /// Bounds the memory of all decode and render work running at once.
    public let budget: WorkBudget
    let thumbnailCells: ThumbnailCells
    /// Where photos are decoded (`PictureDecoding`): sandboxed worker processes or this process.
    let decoder: PictureDecoding
    /// Albums sorted in a session's order, kept while the album is unchanged.
    let albumOrders = AlbumOrderCache()
    /// Where session and library events go (the daemon fans them out to subscribers).
    let events: @Sendable (Event) -> Void
    /// The library watcher, once started.
    private let watcher = Mutex<LibraryWatcher?>(nil)
    /// The fixed pool request work runs on (the daemon submits to it; grids fork into it).
    public let pool: WorkerPool
    /// Renders a session's neighbouring photos while the user looks (`--no-prefetch`).
    let prefetcher: Prefetcher
    /// Called once, when the first scan of this run has ended (`pickerd --ready-fd`).
    private let firstScanEnded = Mutex<FirstScanWaiter?>(nil)
    private struct FirstScanWaiter { let call: @Sendable () -> Void }

    public init(configuration: EngineConfiguration, events: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.configuration = configuration
        let pool = WorkerPool(workers: configuration.workers)
        self.pool = pool
        let prefetcher = Prefetcher(pool: pool, enabled: configuration.prefetch)
        self.prefetcher = prefetcher
        self.events = { prefetcher.observe($0); events($0) }
        let library = PhotoLibrary(root: configuration.libraryRoot, maxPhotoBytes: configuration.maxPhotoBytes, pool: pool,
                                   maxPixels: configuration.maxPixels, showsRawPairs: configuration.showsRawPairs)
        self.library = library
        let budget = WorkBudget(capacityBytes: configuration.workBudgetBytes)
        self.budget = budget
        self.sessions = SessionStore(stateDirectory: configuration.stateDirectory)
        // Freed blocks of 256 KiB and up go back to the system at once: otherwise evicted entries
        // and per-request pixel buffers stay in glibc's arenas and RSS ends tens of MiB above
        // base + bound (measured: 71 MiB instead of 39 after 200 requests with a 16 MiB bound).
        pk_map_large_blocks(256 << 10)
        // Encoded results get three quarters of the memory bound, thumbnail cells the rest.
        self.cache = RenderCache(capacityBytes: configuration.cacheBytes / 4 * 3)
        let decoder: PictureDecoding = configuration.sandboxedDecoding.map { SandboxedDecoder($0) }
            ?? InProcessDecoder(maxPhotoBytes: configuration.maxPhotoBytes)
        self.decoder = decoder
        self.thumbnailCells = ThumbnailCells(
            library: library, decoder: decoder,
            shared: configuration.thumbnailCacheHome.map {
                SharedThumbnailStore(cacheHome: $0, software: configuration.serverVersion)
            },
            capacityBytes: configuration.cacheBytes / 4, maxPixels: configuration.maxPixels, budget: budget)
        prefetcher.attach(self)
    }

    /// Starts the library watcher: the first scan runs in the background (the socket already
    /// answers; listings say `scanning` until it ends), then inotify keeps the index current.
    public func startLibrary() {
        // The daemon's threads start now: the first scan's header reads already get helpers.
        pool.start()
        let watcher = LibraryWatcher(library: library, indexDirectory: configuration.indexDirectory) { [weak self] update in
            self?.libraryUpdated(update)
        }
        self.watcher.withLock { $0 = watcher }
        library.progress.onTick { [events] in events(.scanProgress($0)) }
        events(.library(library.info))
        watcher.start()
    }

    /// Calls `f` once, after the first scan of this run has ended and its library event was sent.
    public func whenFirstScanEnds(_ f: @escaping @Sendable () -> Void) {
        firstScanEnded.withLock { $0 = FirstScanWaiter(call: f) }
    }

    private func endFirstScan() {
        firstScanEnded.withLock { waiter in defer { waiter = nil }; return waiter }?.call()
    }

    /// Stops watching the library (shutdown).
    public func stopLibrary() {
        watcher.withLock { $0?.stop() }
    }

    /// Shutdown, after the server loop ended: stops watching the library and writes the
    /// session changes still pending.
    public func stop() {
        stopLibrary()
        sessions.finishWriting()
    }

    /// After each step of the watcher: the library event, then (for a rescan) the photos added,
    /// removed and changed in batches, and the sessions that lost photos. The first scan of a library
    /// nothing was known of names no photos (every one would be "added").
    func libraryUpdated(_ update: LibraryUpdate) {
        defer { if update.kind != .loadedFromIndex { endFirstScan() } }
        switch update.kind {
        case .loadedFromIndex, .firstScan:
            events(.library(library.info))
        case .rescan, .indexChecked:
            let changes = update.changes
            // After the check of the index the scan state changes, so that is news even with no changes.
            guard !changes.isEmpty || update.kind == .indexChecked else { return }
            events(.library(library.info))
            for batch in Self.batches(of: changes.sorted(), size: 1000) { events(.libraryChanges(batch)) }
            if !changes.removed.isEmpty { forget(Set(changes.removed)) }
            if !changes.added.isEmpty { followFormedPairs(changes.added, in: update.snapshot) }
            if !changes.changed.isEmpty { announceCurrentChanged(Set(changes.changed)) }
        }
    }

    /// A session whose current photo's file changed on disk hears so (a photo event): its picture
    /// and status message are new, and a client showing it should ask again.
    private func announceCurrentChanged(_ changed: Set<String>) {
        for session in sessions.all() where session.photo.map(changed.contains) ?? false {
            events(.session(.photo, state(of: session)))
        }
    }

    static func batches(of changes: LibraryChangeSet, size: Int) -> [LibraryChanges] {
        var out: [LibraryChanges] = []
        var current = LibraryChanges()
        func flushIfFull() {
            if current.added.count + current.removed.count + current.changed.count >= size {
                out.append(current)
                current = LibraryChanges()
            }
        }
        for path in changes.added { current.added.append(path); flushIfFull() }
        for path in changes.removed { current.removed.append(path); flushIfFull() }
        for path in changes.changed { current.changed.append(path); flushIfFull() }
        if current != LibraryChanges() { out.append(current) }
        return out
    }

    /// Photos gone from the library: picks of them are dropped (a selection event), and a session
    /// whose current photo it was hears so (a photo event; its status says the photo is gone).
    private func forget(_ removed: Set<String>) {
        for session in sessions.all() {
            let lostPicks = session.selection.contains(where: removed.contains)
            let lostCurrent = session.photo.map(removed.contains) ?? false
            guard lostPicks || lostCurrent else { continue }
            guard let change = try? changeSession(session.name, .selection, { s in
                s.selection.removeAll(where: removed.contains)
            }) else { continue }
            if lostCurrent { _ = announce(.photo, change.state) }
        }
    }

    /// What the handshake advertises.
    public var capabilities: Capabilities {
        Capabilities(version: ProtocolLimits.version, serverVersion: configuration.serverVersion,
                     maxRequestFrame: ProtocolLimits.maxRequestFrame, maxReplyFrame: ProtocolLimits.maxReplyFrame,
                     inputFormats: ImageCodecs.inputFormats, outputFormats: [.png, .jpeg, .webp, .sixel, .symbols])
    }

    /// Answers one request; every failure becomes an error reply.
    public func handle(_ request: Request) -> Reply {
        handle(request, prepared: .unplanned)
    }

    /// Answers one request with what `prepare` worked out for it ahead.
    public func handle(_ request: Request, prepared: PreparedRequest) -> Reply {
        let start = monotonicNow()
        let reply: Reply
        do {
            reply = try answer(request, prepared)
        } catch {
            reply = .error(error)
        }
        if Log.level <= .debug {
            let ms = (monotonicNow() - start) * 1000
            let outcome: String
            if case .error(let e) = reply { outcome = "error \(e.code.name): \(e.message)" } else { outcome = "ok" }
            Log.debug("\(request.messageType) \(request.sessionName ?? "-") \(outcome) in \(String(format3(ms))) ms")
        }
        return reply
    }

    private func answer(_ request: Request, _ prepared: PreparedRequest) throws(PickerError) -> Reply {
        switch request {
        case .hello:
            return .hello(capabilities)
        case .ping:
            return .pong(serverVersion: configuration.serverVersion)
        case .libraryInfo:
            return .libraryInfo(library.info)
        case .scanProgress:
            return .scanProgress(library.scanProgress)
        case .sessionNew(let params):
            let session = try Session(params)
            try sessions.create(session)
            return .session(announce(.created, state(of: session)))
        case .sessionList:
            return .sessionList(sessions.all().map(state(of:)))
        case .sessionShow(let name), .status(let name):
            return .session(state(of: try sessions.get(name)))
        case let .sessionResize(name, width, height):
            try Session.validatePane(width: width, height: height)
            return .session(try changeSession(name, .paneSize) { s in
                s.width = width
                s.height = height
            }.state)
        case .sessionClose(let name):
            let last = state(of: try sessions.get(name))
            try sessions.remove(name)
            _ = announce(.closed, last)
            return .sessionClosed(name: name)
        case .albums:
            let snapshot = library.snapshot
            return .albums(snapshot.albums.enumerated().map { i, a in
                AlbumInfo(index: i + 1, name: a.name, photoCount: a.photos.count)
            })
        case let .selectAlbum(name, selector):
            let album = try library.album(selector)
            return .session(try changeSession(name, .album) { s in
                s.album = album.name
                s.photo = nil
            }.state)
        case let .photos(name, sort):
            return .photos(try photoList(name, sort))
        case .photosPage(let params):
            return .photosPage(try photosPage(params))
        case let .setSort(name, sort):
            return .session(try setSort(name, sort))
        case let .selectPhoto(name, selector):
            return .session(try selectPhoto(name, selector))
        case let .stepPhoto(name, direction):
            return .session(try stepPhoto(name, direction))
        case .getImage(let params):
            return .image(try renderCurrent(params, prepared).answering(params.cells))
        case let .photoInfo(name, photo, asked):
            return .photoInfo(try photoDetails(name, photo, asked: asked))
        case let .toggle(name, selector):
            return .selection(try toggle(name, selector))
        case .selection(let name):
            return .selection(try selection(of: name))
        case .clearSelection(let name):
            let change = try changeSession(name, .selection) { s in s.selection.removeAll() }
            return .selection(SelectionList(maxSelection: change.after.maxSelection, photos: []))
        case .thumbnails(let params):
            var sheet = try thumbnailSheet(params)
            sheet.image = sheet.image?.answering(params.cells)
            return .thumbnails(sheet)
        case .preview(let params):
            let plan = try prepared.planned { () throws(PickerError) in try renderPlan(params) }
            return .image(try render(plan, cached: prepared.cached).answering(params.cells))
        case let .sessionFinish(name, outcome):
            return .session(try finish(name, outcome))
        case .choices(let name):
            return .choices(try choices(of: name))
        case let .setChoice(name, id, value):
            return .choices(try setChoice(name, id: id, value: value))
        case .subscribe, .cancel:
            // Connection-level: the server answers these itself.
            throw PickerError(.internal, "\(request.messageType) must be handled by the server")
        }
    }

    // MARK: helpers

    /// Sends a session event and passes the state through.
    func announce(_ change: SessionChange, _ state: SessionState) -> SessionState {
        events(.session(change, state))
        return state
    }

    /// A session change as made: the session before and after, and the state clients see now.
    struct SessionChangeResult {
        var before: Session
        var after: Session
        var state: SessionState
    }

    /// The one path of every session change: `body` mutates the session under the store's lock;
    /// when `isNews(before, after)` (by default: the session really changed) the change is
    /// announced as `change`. The store writes it in the background; the server holds the reply
    /// until it is durable (`SessionStore.whenDurable`).
    ///
    /// This is also the one place that knows when a session's current photo moved
    /// (`before.photo != after.photo`): the hook for work that follows the user's eye (prefetch).
    /// - Throws: `.noSuchSession`, or what `body` throws (then nothing changes).
    @discardableResult
    func changeSession(_ name: String, _ change: SessionChange,
                       isNews: (Session, Session) -> Bool = { $0 != $1 },
                       _ body: (inout Session) throws(PickerError) -> Void) throws(PickerError) -> SessionChangeResult {
        let (before, after) = try sessions.update(name) { (s: inout Session) throws(PickerError) -> (Session, Session) in
            let before = s
            try body(&s)
            if s != before { s.finished = nil }  // a finished session that changes is open again
            return (before, s)
        }
        let state = state(of: after)
        if isNews(before, after) { events(.session(change, state)) }
        return SessionChangeResult(before: before, after: after, state: state)
    }

    func selectedAlbum(of session: Session) throws(PickerError) -> Album {
        guard let name = session.album else {
            throw PickerError(.nothingSelected, "no album selected in session '\(session.name)'")
        }
        return try library.album(.name(name))
    }

    func currentPhoto(of session: Session) throws(PickerError) -> Photo {
        guard let path = session.photo else {
            throw PickerError(.nothingSelected, "no photo selected in session '\(session.name)'")
        }
        guard let photo = library.photo(relativePath: path) else {
            throw PickerError(.noSuchPhoto, "the current photo '\(path)' is no longer in the library")
        }
        return photo
    }

    /// The client-visible state of a session, resolved against the current library.
    func state(of s: Session) -> SessionState {
        var albumIndex: Int? = nil
        var photoCount = 0
        var photoName: String? = nil
        var photoIndex: Int? = nil
        var message = ""
        if let name = s.album, let (i, album) = orderedAlbum(named: name, s.order, filter: s.photoFilter) {
            albumIndex = i
            photoCount = album.count
            if let path = s.photo, let j = album.position(ofPhotoAt: path) {
                let p = album[j]
                photoIndex = j + 1
                photoName = p.fileName
                message = brokenReason(p).map(PhotoMessage.broken)
                    ?? PhotoMessage.text(width: p.header.displayWidth, height: p.header.displayHeight,
                                         bytes: p.byteSize, formatName: p.header.formatName)
            }
        }
        if photoName == nil, let path = s.photo {
            photoName = path.split(separator: "/").last.map(String.init) ?? path
            if library.snapshot.hasBeenScanned { message = "\(photoName ?? path) is no longer in the library" }
        }
        return SessionState(name: s.name, title: s.title, width: s.width, height: s.height,
                            maxSelection: s.maxSelection,
                            selectionCount: s.selection.reduce(0) { $0 + (library.photo(relativePath: $1) == nil ? 0 : 1) },
                            album: s.album, albumIndex: albumIndex, photo: photoName, photoIndex: photoIndex,
                            photoCount: photoCount, message: message)
    }

    /// The current photo fitted into the session's pane, from the plan the probe made when there was one.
    private func renderCurrent(_ params: ImageRequest, _ prepared: PreparedRequest) throws(PickerError) -> EncodedImage {
        let plan = try prepared.planned { () throws(PickerError) in try renderPlan(params) }
        if case .fit(_, let output) = plan.target { prefetcher.noteImageRequest(session: params.session, output: output) }
        return try render(plan, cached: prepared.cached)
    }

    /// The encoding a `getImage` or `preview` asks for, its quality defaulted per format.
    /// - Throws: `.invalidArgument` for `symbols` without cells.
    func outputSpec(_ format: ImageFormat, quality: Int?, cells: TerminalCells?) throws(PickerError) -> OutputSpec {
        if format == .symbols, cells == nil {
            throw PickerError(.invalidArgument, "symbols needs cells")
        }
        return OutputSpec(format: format, quality: quality ?? defaultQuality(format), cells: cells)
    }

    func defaultQuality(_ format: ImageFormat) -> Int {
        switch format {
        case .jpeg: return 85
        case .webp: return 80
        default: return 100  // PNG, sixel, symbols: lossless
        }
    }
}

func format3(_ v: Double) -> String {
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
