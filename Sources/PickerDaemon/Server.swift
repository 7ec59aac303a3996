#if canImport(Glibc)
import Glibc
#endif
import CPickerSys
import PickerEngine
import PickerProtocol
import PickerSystem
import Synchronization

/// The socket thread: one epoll loop that accepts clients, reads and frames requests,
/// hands them to workers and writes replies. It never decodes images or blocks on a client.
public final class Server: Sendable {
    private let listenFD: Int32
    private let epollFD: Int32
    private let mailbox: ReplyMailbox
    private let handler: any RequestHandling
    private let scheduler: RequestScheduler
    private let capabilities: Capabilities
    private let limits: ServerLimits
    private let stopRequested = Atomic<Bool>(false)
    private let hub: EventHub
    /// The latest image request per session, so a newer one can supersede it while it waits.
    private let latestImageRequest = Mutex<[String: CancelToken]>([:])
    private let ownUID = getuid()

    private static let listenToken: UInt64 = 0
    private static let wakeToken: UInt64 = 1

    /// - Parameter listenFD: a bound, listening, non-blocking socket; the server owns it from now on.
    public init(listenFD: Int32, handler: any RequestHandling, capabilities: Capabilities,
                limits: ServerLimits = ServerLimits()) throws(SystemError) {
        self.listenFD = listenFD
        self.handler = handler
        self.scheduler = RequestScheduler(handler: handler)
        self.capabilities = capabilities
        self.limits = limits
        let mailbox = try ReplyMailbox()
        self.mailbox = mailbox
        self.hub = EventHub(mailbox: mailbox)
        self.epollFD = try retryingInterrupts("epoll_create1") { pk_epoll_create() }
        _ = try retryingInterrupts("epoll_ctl") {
            pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_ADD), listenFD, UInt32(PK_EPOLLIN), Server.listenToken)
        }
        _ = try retryingInterrupts("epoll_ctl") {
            pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_ADD), mailbox.wakeFD, UInt32(PK_EPOLLIN), Server.wakeToken)
        }
    }

    deinit {
        FileDescriptorIO.close(epollFD)
    }

    /// Sends an event to the connections subscribed to it. Safe from any thread.
    public func publish(_ event: Event) {
        hub.publish(event)
    }

    /// Asks the loop to stop: it stops accepting, lets in-flight requests finish
    /// (up to `drainSeconds`), flushes replies and returns from `run`. Safe from any thread.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        mailbox.wake()
    }

    /// Runs the loop on the calling thread until `stop()`.
    public func run(drainSeconds: Double = 5) {
        var connections: [UInt64: ClientConnection] = [:]
        var nextID: UInt64 = 2
        var events = [pk_epoll_event](repeating: pk_epoll_event(), count: 64)
        var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
        var listening = true
        var drainDeadline: Double? = nil
        var lastSweep = monotonicNow()
        var lastActivity = lastSweep
        var trimmed = true

        func close(_ conn: ClientConnection) {
            hub.remove(connection: conn.id)
            // Work still queued for a vanished client is skipped; running work is dropped when done.
            for token in conn.tokens.values { _ = token.cancel() }
            _ = pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_DEL), conn.fd, 0, 0)
            FileDescriptorIO.close(conn.fd)
            connections[conn.id] = nil
        }

        func updateInterest(_ conn: ClientConnection) {
            let shouldRead = !conn.state.closing && !conn.closeAfterFlush && listening
                && conn.queuedBytes < limits.maxQueuedOutputBytes
            let shouldWrite = conn.hasPendingOutput
            guard shouldRead != conn.reading || shouldWrite != conn.wantsWrite else { return }
            conn.reading = shouldRead
            conn.wantsWrite = shouldWrite
            var mask: UInt32 = 0
            if shouldRead { mask |= UInt32(PK_EPOLLIN) | UInt32(PK_EPOLLRDHUP) }
            if shouldWrite { mask |= UInt32(PK_EPOLLOUT) }
            _ = pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_MOD), conn.fd, mask, conn.id)
        }

        /// Writes what is queued; closes if the peer is gone or a close was asked for and all is sent.
        func flushOrClose(_ conn: ClientConnection) {
            if !conn.flush() {
                close(conn)
                return
            }
            startParked(conn)
            if conn.closeAfterFlush && !conn.hasPendingOutput && conn.inFlight == 0 {
                close(conn)
                return
            }
            updateInterest(conn)
        }

        func perform(_ actions: [ConnectionState.Action], on conn: ClientConnection) {
            for action in actions {
                switch action {
                case .send(let frame):
                    conn.enqueue(frame.encoded())
                case .close:
                    conn.closeAfterFlush = true
                case let .dispatch(id, request):
                    // Connection-level requests are answered here, at once, in arrival order.
                    if case .subscribe(let subscription) = request {
                        hub.subscribe(connection: conn.id, id: id, subscription)
                        conn.droppedSubscription = nil
                        conn.enqueue(Reply.subscribed(subscription).frame(id: id).encoded())
                        continue
                    }
                    // ping measures the daemon's responsiveness: answered here, never behind image work.
                    if case .ping = request {
                        conn.enqueue(Reply.pong(serverVersion: capabilities.serverVersion).frame(id: id).encoded())
                        continue
                    }
                    if case .cancel(let target) = request {
                        let found = conn.tokens[target]?.cancel() ?? false
                        conn.enqueue(Reply.cancelReply(requestID: target, found: found).frame(id: id).encoded())
                        continue
                    }
                    guard conn.inFlight < limits.maxInFlightPerConnection else {
                        let e = PickerError(.tooBusy, "too many requests in flight on this connection (limit \(limits.maxInFlightPerConnection)); wait for replies")
                        conn.enqueue(Reply.error(e).frame(id: id).encoded())
                        continue
                    }
                    conn.inFlight += 1
                    let token = CancelToken()
                    conn.tokens[id] = token
                    if Server.isImageWork(request), let s = request.sessionName {
                        latestImageRequest.withLock { latest in
                            latest[s]?.supersede()
                            latest[s] = token
                        }
                    }
                    conn.parked.append(.init(id: id, request: request, token: token))
                    startParked(conn)
                }
            }
        }

        /// Dispatches the connection's waiting requests in arrival order. Image work waits (it is
        /// not refused) while the connection already runs `maxImageWorkPerConnection` image requests
        /// or has `maxQueuedOutputBytes` unsent: so the replies a client has not read stay bounded
        /// (1 MiB plus a few images), not 64 images. Later requests wait behind it to keep their order.
        func startParked(_ conn: ClientConnection) {
            while let next = conn.parked.first {
                let image = Server.isImageWork(next.request)
                if image && (conn.imageWorkRunning >= limits.maxImageWorkPerConnection
                             || conn.queuedBytes >= limits.maxQueuedOutputBytes) {
                    return
                }
                conn.parked.removeFirst()
                if image { conn.imageWorkRunning += 1 }
                dispatch(next, from: conn.id)
            }
        }

        func dispatch(_ work: ClientConnection.Parked, from connID: UInt64) {
            let (id, request, token) = (work.id, work.request, work.token)
            let image = Server.isImageWork(request)
            let imageSession = image ? request.sessionName : nil
            let handler = self.handler
            let mailbox = self.mailbox
            let kind: WorkClass = if case .pool(let k) = RequestClass(request) { k } else { .interactive }
            scheduler.submit(request, kind: kind, connection: connID, cancel: token.flag) { [self] in
                var reply: Reply
                if token.begin() {
                    reply = handler.handle(request)
                    if !token.finish() { reply = .error(Server.cancelledError(token.outcome, request)) }
                } else {
                    reply = .error(Server.cancelledError(token.outcome, request))
                }
                if let s = imageSession {
                    latestImageRequest.withLock { latest in
                        if latest[s] === token { latest[s] = nil }
                    }
                }
                mailbox.post(.init(connection: connID, bytes: reply.frame(id: id).encoded(), reply: id,
                                   imageWork: image))
            }
        }

        func acceptAll() {
            while true {
                let fd = pk_accept(listenFD)
                if fd < 0 {
                    let e = Errno.current
                    if e == .interrupted { continue }
                    if e != .wouldBlock && e.rawValue != ECONNABORTED {
                        Log.error("accept: \(e)")
                    }
                    return
                }
                let uid: uid_t
                do {
                    uid = try UnixSocket.peerUID(fd)
                } catch {
                    Log.error("\(error); closing the connection")
                    FileDescriptorIO.close(fd)
                    continue
                }
                if uid != ownUID {
                    refuse(fd, PickerError(.permissionDenied, "permission denied: peer uid \(uid) is not the daemon's uid \(ownUID)"))
                    Log.error("refused a connection from uid \(uid)")
                    continue
                }
                if connections.count >= limits.maxConnections {
                    refuse(fd, PickerError(.tooBusy, "too many connections (limit \(limits.maxConnections)); try again later"))
                    Log.error("refused a connection: \(connections.count) open")
                    continue
                }
                // A larger send buffer lets a typical image reply leave in one write.
                var sendBuffer: Int32 = 1 << 20
                _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
                let conn = ClientConnection(id: nextID, fd: fd, capabilities: capabilities)
                nextID += 1
                connections[conn.id] = conn
                let mask = UInt32(PK_EPOLLIN) | UInt32(PK_EPOLLRDHUP)
                if pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_ADD), fd, mask, conn.id) != 0 {
                    Log.error("epoll_ctl(ADD): \(Errno.current)")
                    close(conn)
                }
            }
        }

        func readFrom(_ conn: ClientConnection) {
            // Level-triggered: one bounded read per wake-up keeps the loop fair, so a client
            // flooding small requests cannot hold the socket thread away from the others.
            guard conn.reading, !conn.state.closing else { return }
            let progress: IOProgress
            do {
                progress = try readBuffer.withMutableRawBytes { raw throws(SystemError) in
                    try FileDescriptorIO.read(conn.fd, into: raw)
                }
            } catch {
                close(conn)
                return
            }
            switch progress {
            case .transferred(let n):
                let actions = conn.state.received(readBuffer[0..<n])
                perform(actions, on: conn)
                // The clock runs from the start of the frame now pending: a read that completed
                // a frame (any action) restarts it, so a busy client whose writes split frames
                // is not taken for a stalled one.
                if conn.state.bufferedByteCount == 0 {
                    conn.partialSince = nil
                } else if conn.partialSince == nil || !actions.isEmpty {
                    conn.partialSince = monotonicNow()
                }
                flushOrClose(conn)
                if connections[conn.id] == nil { return }
            case .wouldBlock:
                return
            case .endOfFile:
                // The client finished sending (it may still read): answer what is in flight, then close.
                conn.closeAfterFlush = true
                flushOrClose(conn)
                return
            }
        }

        while true {
            if stopRequested.load(ordering: .sequentiallyConsistent) && listening {
                listening = false
                _ = pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_DEL), listenFD, 0, 0)
                FileDescriptorIO.close(listenFD)
                drainDeadline = monotonicNow() + drainSeconds
                for conn in Array(connections.values) { updateInterest(conn) }
            }
            if let deadline = drainDeadline {
                let busy = connections.values.contains { $0.inFlight > 0 || $0.hasPendingOutput }
                if !busy || monotonicNow() > deadline { break }
            }
            // Wake at least once a second to time out half-received frames.
            let n = events.withUnsafeMutableBufferPointer { buf in
                pk_epoll_wait(epollFD, buf.baseAddress, Int32(buf.count), drainDeadline == nil ? 1000 : 50)
            }
            let now = monotonicNow()
            if n > 0 { lastActivity = now; trimmed = false }
            if now - lastSweep >= 1 {
                lastSweep = now
                // Give freed memory back once idle: glibc keeps large freed arenas otherwise.
                if !trimmed && now - lastActivity > 2 && !connections.values.contains(where: { $0.inFlight > 0 }) {
                    FreeMemory.returnToSystem()
                    trimmed = true
                }
                for conn in Array(connections.values) {
                    if let since = conn.partialSince, now - since > limits.partialFrameTimeout {
                        Log.error("closing a connection: incomplete frame for \(Int(now - since)) s")
                        conn.partialSince = nil
                        perform(conn.state.timedOut(after: limits.partialFrameTimeout), on: conn)
                        flushOrClose(conn)
                    }
                }
            }
            if n < 0 {
                if Errno.current == .interrupted { continue }
                Log.fault("epoll_wait: \(Errno.current)")
                break
            }
            for i in 0..<Int(n) {
                let token = events[i].data
                let mask = events[i].events
                if token == Server.listenToken {
                    if listening { acceptAll() }
                    continue
                }
                if token == Server.wakeToken {
                    for delivery in mailbox.drain() {
                        guard let conn = connections[delivery.connection] else { continue }
                        if let id = delivery.reply {
                            conn.inFlight -= 1
                            conn.tokens[id] = nil
                        }
                        if delivery.imageWork { conn.imageWorkRunning -= 1 }
                        if let subscription = delivery.subscription {
                            deliverEvent(delivery.bytes, subscription: subscription, to: conn)
                        } else {
                            conn.enqueue(delivery.bytes)
                        }
                        flushOrClose(conn)
                    }
                    continue
                }
                guard let conn = connections[token] else { continue }
                if mask & UInt32(PK_EPOLLOUT) != 0 {
                    flushOrClose(conn)
                    if connections[token] == nil { continue }
                }
                if mask & UInt32(PK_EPOLLIN) != 0 {
                    readFrom(conn)
                    if connections[token] == nil { continue }
                }
                if mask & (UInt32(PK_EPOLLERR) | UInt32(PK_EPOLLHUP)) != 0 {
                    close(conn)
                }
            }
        }
        for conn in Array(connections.values) {
            _ = conn.flush()
            close(conn)
        }
        if listening { FileDescriptorIO.close(listenFD) }
    }

    /// Queues an event for a subscriber, within the per-connection cap on unsent events.
    ///
    /// A subscriber that lets `maxQueuedEventBytes` of events pile up unread is dropped rather
    /// than coalesced: its unsent events are discarded, its subscription ends, and one `too_busy`
    /// error carrying the subscription's id tells it why. Coalescing would merge change kinds
    /// (a `closed` then `created` would vanish); a client this far behind must re-read the state anyway.
    private func deliverEvent(_ bytes: [UInt8], subscription: UInt32, to conn: ClientConnection) {
        if conn.droppedSubscription == subscription { return }
        if conn.enqueueEvent(bytes, limit: limits.maxQueuedEventBytes) { return }
        conn.discardUnsentEvents()
        hub.remove(connection: conn.id, subscription: subscription)
        conn.droppedSubscription = subscription
        let e = PickerError(.tooBusy, Server.droppedSubscriberMessage(limit: limits.maxQueuedEventBytes))
        conn.enqueue(Reply.error(e).frame(id: subscription).encoded())
        Log.error("ended the subscription of a connection that left \(limits.maxQueuedEventBytes / 1024) KiB of events unread")
    }

    static func droppedSubscriberMessage(limit: Int) -> String {
        "subscription ended: more than \(limit / 1024) KiB of events were left unread; read events as they come, then subscribe again"
    }

    /// Requests that decode pictures: a newer one on the same session supersedes a waiting older one.
    static func isImageWork(_ request: Request) -> Bool {
        RequestClass(request).isImageWork
    }

    static func cancelledError(_ outcome: CancelToken.Outcome, _ request: Request) -> PickerError {
        if outcome == .superseded {
            return PickerError(.cancelled, "superseded by a newer image request on session '\(request.sessionName ?? "")'")
        }
        return PickerError(.cancelled, "cancelled by the client")
    }

    /// Sends one error frame (best effort, never blocking) and closes.
    private func refuse(_ fd: Int32, _ error: PickerError) {
        let bytes = Reply.error(error).frame(id: 0).encoded()
        _ = try? bytes.withRawBytes { raw throws(SystemError) in try FileDescriptorIO.send(fd, raw) }
        FileDescriptorIO.close(fd)
    }
}
