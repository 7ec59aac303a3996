#if canImport(Glibc)
import Glibc
#endif
import CPickerSys
import PickerProtocol
import PickerSystem

/// The socket thread's loop: epoll over the listening socket, the mailbox and every client;
/// it turns what epoll reports into events for each connection's `ConnectionMachine` and
/// carries out the actions that come back. Lives on one thread, for one `Server.run`.
final class Dispatcher {
    private let server: Server
    private let table = ConnectionTable()
    private let drainSeconds: Double
    private var events = [pk_epoll_event](repeating: pk_epoll_event(), count: 64)
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    private var listening = true
    private var drainDeadline: Double? = nil
    private var lastSweep: Double
    private var lastActivity: Double
    private var trimmed = true

    init(server: Server, drainSeconds: Double) {
        self.server = server
        self.drainSeconds = drainSeconds
        lastSweep = server.clock.now()
        lastActivity = lastSweep
    }

    private var now: Double { server.clock.now() }

    func run() {
        while true {
            if server.isStopRequested && listening { beginDraining() }
            if let deadline = drainDeadline, !table.isBusy || now > deadline { break }
            // Wake at least once a second to look at the timers.
            let n = events.withUnsafeMutableBufferPointer { buf in
                pk_epoll_wait(server.epollFD, buf.baseAddress, Int32(buf.count), drainDeadline == nil ? 1000 : 50)
            }
            if n < 0 {
                if Errno.current == .interrupted { continue }
                Log.fault("epoll_wait: \(Errno.current)")
                break
            }
            sweep(active: n > 0)
            for i in 0..<Int(n) { handle(token: events[i].data, mask: events[i].events) }
        }
        for conn in table.all {
            _ = conn.flush()
            close(conn)
        }
        if listening { FileDescriptorIO.close(server.listenFD) }
    }

    // MARK: epoll events

    private func handle(token: UInt64, mask: UInt32) {
        switch token {
        case Server.listenToken:
            if listening { acceptAll() }
        case Server.wakeToken:
            // The eventfd is reset before the adoptions are taken: an `adopt` after the take wakes
            // the loop again. (Taken first, an adoption that landed between the take and the reset
            // lost its wake and waited, unserved, for an unrelated one.)
            let deliveries = server.mailbox.drain()
            for fd in server.takeAdoptions() { admit(fd) }
            deliver(deliveries)
        case Server.signalToken:
            for signal in SignalDescriptor.drain(server.signalFD.load(ordering: .sequentiallyConsistent)) {
                Log.info("signal \(signal): shutting down")
                server.stop()
            }
        default:
            guard let conn = table[token] else { return }
            if mask & UInt32(PK_EPOLLOUT) != 0 {
                settle(conn)
                if table[token] == nil { return }
            }
            if mask & UInt32(PK_EPOLLIN) != 0 {
                readFrom(conn)
                if table[token] == nil { return }
            }
            if mask & (UInt32(PK_EPOLLERR) | UInt32(PK_EPOLLHUP)) != 0 { close(conn) }
        }
    }

    private func acceptAll() {
        while true {
            let fd = pk_accept(server.listenFD)
            if fd < 0 {
                let e = Errno.current
                if e == .interrupted { continue }
                if e != .wouldBlock && e.rawValue != ECONNABORTED { Log.error("accept: \(e)") }
                return
            }
            admit(fd)
        }
    }

    /// Takes up a connected client: its uid checked, the connection limit applied.
    private func admit(_ fd: Int32) {
        let uid: uid_t
        do {
            uid = try UnixSocket.peerUID(fd)
        } catch {
            Log.error("\(error); closing the connection")
            FileDescriptorIO.close(fd)
            return
        }
        if uid != server.ownUID {
            refuse(fd, PickerError(.permissionDenied, "permission denied: peer uid \(uid) is not the daemon's uid \(server.ownUID)"))
            Log.error("refused a connection from uid \(uid)")
            return
        }
        if !listening {
            refuse(fd, PickerError(.tooBusy, "the daemon is shutting down"))
            return
        }
        if table.count >= server.limits.maxConnections {
            refuse(fd, PickerError(.tooBusy, "too many connections (limit \(server.limits.maxConnections)); try again later"))
            Log.error("refused a connection: \(table.count) open")
            return
        }
        UnixSocket.enlargeSendBuffer(fd)
        let conn = ClientConnection(id: table.makeID(), fd: fd,
                                    machine: ConnectionMachine(capabilities: server.capabilities,
                                                               limits: server.limits, now: now))
        table.insert(conn)
        server.connectionCountChanged(table.count)
        let mask = UInt32(PK_EPOLLIN) | UInt32(PK_EPOLLRDHUP)
        if pk_epoll_ctl(server.epollFD, Int32(PK_EPOLL_CTL_ADD), fd, mask, conn.id) != 0 {
            Log.error("epoll_ctl(ADD): \(Errno.current)")
            close(conn)
        }
    }

    private func readFrom(_ conn: ClientConnection) {
        // Level-triggered: one bounded read per wake-up keeps the loop fair, so a client
        // flooding small requests cannot hold the socket thread away from the others.
        guard conn.machine.wantsRead else { return }
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
            perform(conn.machine.received(readBuffer[0..<n], now: now), for: conn)
            settle(conn)
        case .wouldBlock:
            return
        case .endOfFile:
            conn.machine.peerFinishedSending()
            settle(conn)
        }
    }

    /// Deliveries drained from the mailbox (its wake reset) go to their connections.
    private func deliver(_ deliveries: [ReplyMailbox.Delivery]) {
        for delivery in deliveries {
            guard let conn = table[delivery.connection] else { continue }
            if let id = delivery.reply {
                perform(conn.machine.replyReady(id: id, bytes: delivery.bytes, imageWork: delivery.imageWork, now: now),
                        for: conn)
            } else if let subscription = delivery.subscription {
                perform(conn.machine.eventReady(bytes: delivery.bytes.joined, subscription: subscription), for: conn)
            }
            settle(conn)
        }
    }

    // MARK: timers

    private func sweep(active: Bool) {
        let now = self.now
        if active { lastActivity = now; trimmed = false }
        guard now - lastSweep >= 1 else { return }
        lastSweep = now
        // Give freed memory back once idle: glibc keeps large freed arenas otherwise.
        if !trimmed && now - lastActivity > 2 && !table.hasWorkInFlight {
            FreeMemory.returnToSystem()
            trimmed = true
        }
        for conn in table.all {
            conn.machine.tick(now: now)
            settle(conn)
        }
    }

    private func beginDraining() {
        listening = false
        _ = pk_epoll_ctl(server.epollFD, Int32(PK_EPOLL_CTL_DEL), server.listenFD, 0, 0)
        FileDescriptorIO.close(server.listenFD)
        drainDeadline = now + drainSeconds
        for conn in table.all {
            conn.machine.stopAccepting()
            updateInterest(conn)
        }
    }

    // MARK: carrying out actions

    private func perform(_ actions: [ConnectionMachine.Action], for conn: ClientConnection) {
        for action in actions {
            switch action {
            case .schedule(let work):
                server.submit(work, from: conn.id)
            case let .imageRequestArrived(session, token):
                server.imageRequestArrived(session: session, token: token)
            case let .subscribe(id, subscription):
                server.hub.subscribe(connection: conn.id, id: id, subscription)
            case .unsubscribe(let subscription):
                server.hub.remove(connection: conn.id, subscription: subscription)
            }
        }
    }

    /// After any event: write what is queued, then close when the machine is done (or the
    /// peer gone), else register the epoll interest the machine now wants.
    private func settle(_ conn: ClientConnection) {
        guard let actions = conn.flush() else {
            close(conn)
            return
        }
        perform(actions, for: conn)
        if conn.machine.isFinished {
            close(conn)
            return
        }
        updateInterest(conn)
    }

    private func updateInterest(_ conn: ClientConnection) {
        let read = conn.machine.wantsRead, write = conn.machine.wantsWrite
        guard read != conn.reading || write != conn.writing else { return }
        conn.reading = read
        conn.writing = write
        var mask: UInt32 = 0
        if read { mask |= UInt32(PK_EPOLLIN) | UInt32(PK_EPOLLRDHUP) }
        if write { mask |= UInt32(PK_EPOLLOUT) }
        _ = pk_epoll_ctl(server.epollFD, Int32(PK_EPOLL_CTL_MOD), conn.fd, mask, conn.id)
    }

    private func close(_ conn: ClientConnection) {
        server.hub.remove(connection: conn.id)
        // Work still queued for a vanished client is skipped; running work is dropped when done.
        conn.machine.cancelAll()
        _ = pk_epoll_ctl(server.epollFD, Int32(PK_EPOLL_CTL_DEL), conn.fd, 0, 0)
        FileDescriptorIO.close(conn.fd)
        table.remove(conn.id)
        server.connectionCountChanged(table.count)
    }

    /// Sends one error frame (best effort, never blocking) and closes.
    private func refuse(_ fd: Int32, _ error: PickerError) {
        let bytes = Reply.error(error).frame(id: 0).encoded()
        _ = try? bytes.withRawBytes { raw throws(SystemError) in try FileDescriptorIO.send(fd, raw) }
        FileDescriptorIO.close(fd)
    }
}
