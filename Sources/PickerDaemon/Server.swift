#if canImport(Glibc)
import Glibc
#endif
import CPickerSys
import PickerEngine
import PickerProtocol
import PickerSystem
import Synchronization

/// The server: what the socket thread shares with the other threads (the mailbox, the event
/// hub, the scheduler, the stop flag). The socket thread's own loop is `Dispatcher`; each
/// connection's life is a `ConnectionMachine`. It never decodes images or blocks on a client.
public final class Server: Sendable {
    let listenFD: Int32
    let epollFD: Int32
    let mailbox: ReplyMailbox
    let hub: EventHub
    let capabilities: Capabilities
    let limits: ServerLimits
    let clock: ServerClock
    let ownUID = getuid()
    private let handler: any RequestHandling
    /// Holds each reply until the changes before it are durable (see `DurableReplies`).
    private let durability: any DurableReplies
    private let scheduler: RequestScheduler
    private let stopRequested = Atomic<Bool>(false)
    /// The latest image request per session, so a newer one can supersede it while it waits.
    private let latestImageRequest = Mutex<[String: CancelToken]>([:])
    /// Connected descriptors handed in by `adopt`, for the loop to take up.
    private let adoptions = Mutex<[Int32]>([])
    private let openConnections = Atomic<Int>(0)

    static let listenToken: UInt64 = 0
    static let wakeToken: UInt64 = 1
    static let signalToken: UInt64 = .max
    /// The signalfd whose signals stop the loop (`stopOnSignals`), or -1.
    let signalFD = Atomic<Int32>(-1)

    /// - Parameters:
    ///   - listenFD: a bound, listening, non-blocking socket; the server owns it from now on.
    ///   - clock: the time the timeouts are measured in (tests pass their own).
    public init(listenFD: Int32, handler: any RequestHandling, capabilities: Capabilities,
                limits: ServerLimits = ServerLimits(), clock: ServerClock = .monotonic) throws(SystemError) {
        self.listenFD = listenFD
        self.handler = handler
        self.durability = handler as? any DurableReplies ?? ImmediateReplies()
        self.scheduler = RequestScheduler(handler: handler)
        self.capabilities = capabilities
        self.limits = limits
        self.clock = clock
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

    /// Stops the loop when a signal arrives on `descriptor` (a signalfd): read by the socket thread
    /// itself, so no thread is kept just to wait for SIGTERM.
    public func stopOnSignals(_ descriptor: Int32) throws(SystemError) {
        signalFD.store(descriptor, ordering: .sequentiallyConsistent)
        _ = try retryingInterrupts("epoll_ctl") {
            pk_epoll_ctl(epollFD, Int32(PK_EPOLL_CTL_ADD), descriptor, UInt32(PK_EPOLLIN), Server.signalToken)
        }
    }

    /// Asks the loop to stop: it stops accepting, lets in-flight requests finish
    /// (up to `drainSeconds`), flushes replies and returns from `run`. Safe from any thread.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        mailbox.wake()
    }

    var isStopRequested: Bool { stopRequested.load(ordering: .sequentiallyConsistent) }

    /// Runs the loop on the calling thread until `stop()`.
    public func run(drainSeconds: Double = 5) {
        Dispatcher(server: self, drainSeconds: drainSeconds).run()
    }

    /// Serves an already connected socket (one end of a socketpair in tests) as if accepted;
    /// its peer's uid is checked like any other. Safe from any thread.
    func adopt(connectedFD fd: Int32) {
        adoptions.withLock { $0.append(fd) }
        mailbox.wake()
    }

    /// Wakes the loop, so it looks at its timers now (tests that move their clock call this).
    func wake() {
        mailbox.wake()
    }

    /// Open client connections (for tests and logs).
    var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    func takeAdoptions() -> [Int32] {
        adoptions.withLock { fds in
            defer { fds.removeAll() }
            return fds
        }
    }

    func connectionCountChanged(_ count: Int) {
        openConnections.store(count, ordering: .relaxed)
    }

    // MARK: the one door into the scheduler

    /// Runs one accepted request on a worker; its reply goes back through the mailbox once the
    /// changes before it are durable.
    func submit(_ work: ConnectionMachine.Work, from connID: UInt64) {
        let (id, request, plan, token) = (work.id, work.request, work.plan, work.token)
        let imageSession = plan.isImageWork ? plan.session : nil
        let (handler, mailbox, durability) = (self.handler, self.mailbox, self.durability)
        scheduler.submit(request, plan: plan, connection: connID, cancel: token.flag) { [self] prepared in
            var reply: Reply
            if token.begin() {
                reply = handler.handle(request, prepared: prepared)
                if !token.finish() { reply = .error(Server.cancelledError(token.outcome, request)) }
            } else {
                reply = .error(Server.cancelledError(token.outcome, request))
            }
            if let s = imageSession { imageRequestEnded(session: s, token: token) }
            let delivery = ReplyMailbox.Delivery(connection: connID, bytes: reply.encodedFrameBytes(id: id),
                                                 reply: id, imageWork: plan.isImageWork)
            // A reply to a change waits for the session writer (the worker does not); one that
            // changed nothing goes at once, behind only its own session's replies still waiting.
            durability.whenDurable(plan) { mailbox.post(delivery) }
        }
    }

    /// A newer image request on a session supersedes the older one still waiting there.
    func imageRequestArrived(session: String, token: CancelToken) {
        latestImageRequest.withLock { latest in
            latest[session]?.supersede()
            latest[session] = token
        }
    }

    private func imageRequestEnded(session: String, token: CancelToken) {
        latestImageRequest.withLock { latest in
            if latest[session] === token { latest[session] = nil }
        }
    }

    static func cancelledError(_ outcome: CancelToken.Outcome, _ request: Request) -> PickerError {
        if outcome == .superseded {
            return PickerError(.cancelled, "superseded by a newer image request on session '\(request.sessionName ?? "")'")
        }
        return PickerError(.cancelled, "cancelled by the client")
    }
}
