import PickerClient
import PickerProtocol

/// pick's one connection to pickerd with requests in flight (issue 24 item 9: a picker never waits to
/// read the next key). `post` sends without waiting and hands back a ticket; `call` waits for its own
/// reply and keeps the replies to posted requests that arrive meanwhile; `readArrivals` takes in what
/// the daemon sent when its descriptor is readable, and `takeArrivals` hands the kept replies over.
///
/// pickerd closes a connection left idle (`--idle-timeout`): a call, and the posted requests still
/// unanswered, are sent once more on a new connection.
final class PipelinedConnection {
    private var connection: PickerConnection
    private let reconnect: () throws(ClientError) -> PickerConnection
    /// Posted requests not answered yet, by wire id: the caller's ticket, and the request (sent again
    /// on a new connection).
    private var posted: [UInt32: (ticket: Int, request: Request)] = [:]
    private var arrived: [(ticket: Int, reply: Reply)] = []
    private var nextTicket = 1

    init(connection: PickerConnection, reconnect: @escaping () throws(ClientError) -> PickerConnection) {
        self.connection = connection
        self.reconnect = reconnect
    }

    /// The socket to poll while requests are in flight.
    var descriptor: Int32 { connection.descriptor }

    /// Replies already read, waiting for `takeArrivals` (poll would not wake for them).
    var hasArrivals: Bool { !arrived.isEmpty }

    /// Sends `request` without waiting; its reply comes out of `takeArrivals` with the ticket returned.
    func post(_ request: Request) throws(ClientError) -> Int {
        let ticket = nextTicket
        nextTicket += 1
        let id: UInt32
        do {
            id = try connection.send(request)
        } catch {
            guard case .connectionLost = error else { throw error }
            try renew()
            id = try connection.send(request)
        }
        posted[id] = (ticket, request)
        return ticket
    }

    /// Asks pickerd to stop a posted request (`cancel`: a running decode stops within a batch of rows).
    /// Its reply (`cancelled`, or the result when it had finished) still arrives under its ticket.
    func cancel(_ ticket: Int) {
        guard let id = posted.first(where: { $0.value.ticket == ticket })?.key else { return }
        // The cancelReply is not posted: it is dropped when it arrives.
        _ = try? connection.send(.cancel(requestID: id))
    }

    /// Sends `request` and waits for its reply. Error replies throw `.server`.
    func call(_ request: Request) throws(ClientError) -> Reply {
        do {
            return try callOnce(request)
        } catch {
            guard case .connectionLost = error else { throw error }
            try renew()
            return try callOnce(request)
        }
    }

    private func callOnce(_ request: Request) throws(ClientError) -> Reply {
        let id = try connection.send(request)
        while true {
            guard let reply = try keep(try connection.nextFrame(), waitingFor: id) else { continue }
            try drainBuffered()
            if case .error(let e) = reply { throw .server(e) }
            return reply
        }
    }

    /// Reads the frames the daemon has sent; call when the descriptor is readable.
    func readArrivals() throws(ClientError) {
        do {
            _ = try keep(try connection.nextFrame(), waitingFor: nil)
            try drainBuffered()
        } catch {
            guard case .connectionLost = error else { throw error }
            try renew()
        }
    }

    /// The replies to posted requests that have arrived, in arrival order.
    func takeArrivals() -> [(ticket: Int, reply: Reply)] {
        defer { arrived = [] }
        return arrived
    }

    private func drainBuffered() throws(ClientError) {
        while let frame = try connection.bufferedFrame() { _ = try keep(frame, waitingFor: nil) }
    }

    /// The reply to `id`; a reply to a posted request is kept for `takeArrivals`, anything else dropped.
    /// An error with id 0 is about the connection itself (refused, too busy): thrown at once.
    private func keep(_ frame: Frame, waitingFor id: UInt32?) throws(ClientError) -> Reply? {
        if frame.isEvent { return nil }
        let mine = frame.requestID == id || frame.requestID == 0 || posted[frame.requestID] != nil
        guard mine else { return nil }
        let reply: Reply
        do {
            reply = try Reply(frame: frame)
        } catch {
            throw .connectionLost("bad reply: \(error.message)")
        }
        if frame.requestID == 0, case .error(let e) = reply { throw .server(e) }
        if frame.requestID == id { return reply }
        if let p = posted.removeValue(forKey: frame.requestID) { arrived.append((p.ticket, reply)) }
        return nil
    }

    /// A new connection, with the posted requests sent again on it in the order they were posted.
    private func renew() throws(ClientError) {
        connection = try reconnect()
        let waiting = posted.values.sorted { $0.ticket < $1.ticket }
        posted = [:]
        for p in waiting { posted[try connection.send(p.request)] = p }
    }
}
