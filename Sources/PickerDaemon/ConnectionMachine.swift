import PickerProtocol
import PickerSystem

/// One connection's life as a state machine: events go in (bytes read, the peer done sending,
/// output written, a reply or an event ready, a clock tick) and actions come out (schedule a
/// request, note an image request, subscribe, unsubscribe). What to write, whether to read and
/// whether to close are read off it (`output`, `wantsRead`, `isFinished`) after each event.
/// No I/O and no clock of its own: the dispatcher carries the actions out and passes `now`,
/// so tests drive timeouts in microseconds.
struct ConnectionMachine {
    /// A request read and accepted, to be run on a worker.
    struct Work {
        var id: UInt32
        var request: Request
        /// Worked out once, here where the frame was decoded.
        var plan: RequestPlan
        var token: CancelToken
    }

    enum Action {
        /// Hand this request to the scheduler now (in this order).
        case schedule(Work)
        /// An image request arrived for a session: a waiting older one there is superseded.
        case imageRequestArrived(session: String, token: CancelToken)
        /// Make this the connection's subscription (its reply is queued already).
        case subscribe(id: UInt32, Subscription)
        /// End the subscription with this id (its subscriber fell behind).
        case unsubscribe(subscription: UInt32)
    }

    private var framing: ConnectionState
    private let limits: ServerLimits
    private(set) var output = OutputQueue()
    /// Requests scheduled and not yet answered.
    private(set) var inFlight = 0
    /// Their cancel tokens, by request id.
    private var tokens: [UInt32: CancelToken] = [:]
    /// Requests read but not yet scheduled, in arrival order (see `startParked`).
    private var parked: [Work] = []
    /// Image requests scheduled and not yet answered.
    private var imageWorkRunning = 0
    private var closeAfterFlush = false
    /// False once the server drains for shutdown: nothing more is read.
    private var accepting = true
    private let connectedAt: Double
    private var lastActivity: Double
    /// When the unfinished frame now buffered began arriving.
    private var partialSince: Double?
    private var subscribed = false
    /// The subscription id whose events were dropped for being unread; its late events are skipped.
    private var droppedSubscription: UInt32?

    init(capabilities: Capabilities, limits: ServerLimits, now: Double) {
        framing = ConnectionState(capabilities: capabilities)
        self.limits = limits
        connectedAt = now
        lastActivity = now
    }

    // MARK: what the dispatcher reads off

    /// Read more requests? Not while closing, draining, or with `maxQueuedOutputBytes` unsent
    /// (back-pressure: a client that does not read stops being read).
    var wantsRead: Bool {
        accepting && !framing.closing && !closeAfterFlush && output.queuedBytes < limits.maxQueuedOutputBytes
    }

    var wantsWrite: Bool { output.hasPending }

    /// Everything is sent and answered after a close was decided: close the descriptor.
    var isFinished: Bool { closeAfterFlush && !output.hasPending && inFlight == 0 }

    /// Work or output still pending (shutdown waits for it).
    var isBusy: Bool { inFlight > 0 || output.hasPending }

    // MARK: events

    /// Bytes arrived from the peer.
    mutating func received<C: Collection>(_ bytes: C, now: Double) -> [Action] where C.Element == UInt8 {
        lastActivity = now
        let results = framing.received(bytes)
        // The clock runs from the start of the frame now pending: a read that completed a frame
        // restarts it, so a busy client whose writes split frames is not taken for a stalled one.
        if framing.bufferedByteCount == 0 {
            partialSince = nil
        } else if partialSince == nil || !results.isEmpty {
            partialSince = now
        }
        return perform(results)
    }

    /// The peer finished sending (it may still read): answer what is in flight, then close.
    mutating func peerFinishedSending() {
        closeAfterFlush = true
    }

    /// The server drains for shutdown: read nothing more.
    mutating func stopAccepting() {
        accepting = false
    }

    /// A worker's reply to request `id`.
    mutating func replyReady(id: UInt32, bytes: FrameBytes, imageWork: Bool, now: Double) -> [Action] {
        inFlight -= 1
        tokens[id] = nil
        if imageWork { imageWorkRunning -= 1 }
        lastActivity = now
        output.enqueue(bytes)
        return startParked()
    }

    /// An event for subscription `subscription`, within the cap on unsent events.
    ///
    /// A subscriber that lets `maxQueuedEventBytes` of events pile up unread is dropped rather
    /// than coalesced: its unsent events are discarded, its subscription ends, and one `too_busy`
    /// error carrying the subscription's id tells it why. Coalescing would merge change kinds
    /// (a `closed` then `created` would vanish); a client this far behind must re-read the state anyway.
    mutating func eventReady(bytes: [UInt8], subscription: UInt32) -> [Action] {
        if droppedSubscription == subscription { return [] }
        if output.enqueueEvent(bytes, limit: limits.maxQueuedEventBytes) { return [] }
        output.discardUnsentEvents()
        droppedSubscription = subscription
        subscribed = false
        let e = PickerError(.tooBusy, Self.droppedSubscriberMessage(limit: limits.maxQueuedEventBytes))
        output.enqueue(Reply.error(e).frame(id: subscription).encoded())
        Log.error("ended the subscription of a connection that left \(limits.maxQueuedEventBytes / 1024) KiB of events unread")
        return [.unsubscribe(subscription: subscription)]
    }

    /// Writes what is queued through `send`; image requests held back by unsent output may then start.
    /// - Returns: nil when the peer is gone, else the actions that follow.
    mutating func flush(using send: (GatheredBytes) throws(SystemError) -> IOProgress) -> [Action]? {
        guard output.write(using: send) else { return nil }
        return startParked()
    }

    /// The clock moved: a frame begun and never finished, a connection that never said hello,
    /// and (when configured) one idle for too long are closed.
    mutating func tick(now: Double) {
        guard !framing.closing && !closeAfterFlush else { return }
        if let since = partialSince, now - since > limits.partialFrameTimeout {
            Log.error("closing a connection: incomplete frame for \(Int(now - since)) s")
            partialSince = nil
            apply(framing.timedOut(after: limits.partialFrameTimeout))
        } else if !framing.handshakeDone, now - connectedAt > limits.handshakeTimeout {
            Log.error("closing a connection: no hello within \(Int(limits.handshakeTimeout)) s")
            apply(framing.gaveUp(PickerError(.handshakeRequired, "no hello (type 0x01) within \(Int(limits.handshakeTimeout)) s; closing")))
        } else if let idle = limits.idleTimeout, isIdle, now - lastActivity > idle {
            // A quiet close, as an HTTP server ends an idle keep-alive connection.
            closeAfterFlush = true
        }
    }

    /// Cancels the work still queued or running (the connection is closing for good).
    func cancelAll() {
        for token in tokens.values { _ = token.cancel() }
    }

    static func droppedSubscriberMessage(limit: Int) -> String {
        "subscription ended: more than \(limit / 1024) KiB of events were left unread; read events as they come, then subscribe again"
    }

    // MARK: inside

    /// Nothing asked, nothing owed, no subscription: the connection only holds a descriptor.
    private var isIdle: Bool {
        framing.handshakeDone && !subscribed && inFlight == 0 && parked.isEmpty && !output.hasPending
            && framing.bufferedByteCount == 0
    }

    /// Carries out the protocol state's answers that need nothing from outside.
    private mutating func apply(_ results: [ConnectionState.Action]) {
        _ = perform(results)
    }

    private mutating func perform(_ results: [ConnectionState.Action]) -> [Action] {
        var actions: [Action] = []
        for result in results {
            switch result {
            case .send(let frame):
                output.enqueue(frame.encoded())
            case .close:
                closeAfterFlush = true
            case let .dispatch(id, request):
                actions += accept(id, request)
            }
        }
        return actions + startParked()
    }

    /// A request read in full: connection-level ones are answered here, at once and in arrival
    /// order (ping measures the daemon's responsiveness, so it never waits behind image work);
    /// the rest are parked for the scheduler.
    private mutating func accept(_ id: UInt32, _ request: Request) -> [Action] {
        switch request {
        case .subscribe(let subscription):
            subscribed = subscription.session != nil || subscription.library
            droppedSubscription = nil
            output.enqueue(Reply.subscribed(subscription).frame(id: id).encoded())
            return [.subscribe(id: id, subscription)]
        case .ping:
            output.enqueue(Reply.pong(serverVersion: framing.capabilities.serverVersion).frame(id: id).encoded())
            return []
        case .cancel(let target):
            let found = tokens[target]?.cancel() ?? false
            output.enqueue(Reply.cancelReply(requestID: target, found: found).frame(id: id).encoded())
            return []
        default:
            break
        }
        guard inFlight < limits.maxInFlightPerConnection else {
            let e = PickerError(.tooBusy, "too many requests in flight on this connection (limit \(limits.maxInFlightPerConnection)); wait for replies")
            output.enqueue(Reply.error(e).frame(id: id).encoded())
            return []
        }
        inFlight += 1
        let token = CancelToken()
        tokens[id] = token
        let plan = RequestPlan(request)
        parked.append(Work(id: id, request: request, plan: plan, token: token))
        if plan.isImageWork, let session = plan.session {
            return [.imageRequestArrived(session: session, token: token)]
        }
        return []
    }

    /// Schedules the waiting requests in arrival order. Image work waits (it is not refused)
    /// while the connection already runs `maxImageWorkPerConnection` image requests or has
    /// `maxQueuedOutputBytes` unsent: so the replies a client has not read stay bounded
    /// (256 KiB plus a few images), not 64 images. Later requests wait behind it to keep their order.
    private mutating func startParked() -> [Action] {
        var actions: [Action] = []
        while let next = parked.first {
            let image = next.plan.isImageWork
            if image && (imageWorkRunning >= limits.maxImageWorkPerConnection
                         || output.queuedBytes >= limits.maxQueuedOutputBytes) {
                break
            }
            parked.removeFirst()
            if image { imageWorkRunning += 1 }
            actions.append(.schedule(next))
        }
        return actions
    }
}
