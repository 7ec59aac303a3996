/// The open connections by id (the epoll token). Owned by the socket thread.
final class ConnectionTable {
    private var byID: [UInt64: ClientConnection] = [:]
    /// Ids 0 and 1 are the listening socket's and the mailbox's epoll tokens.
    private var nextID: UInt64 = 2

    var count: Int { byID.count }
    var all: [ClientConnection] { Array(byID.values) }
    var isBusy: Bool { byID.values.contains { $0.machine.isBusy } }
    var hasWorkInFlight: Bool { byID.values.contains { $0.machine.inFlight > 0 } }

    subscript(id: UInt64) -> ClientConnection? { byID[id] }

    /// A fresh id for a new connection.
    func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    func insert(_ conn: ClientConnection) { byID[conn.id] = conn }
    func remove(_ id: UInt64) { byID[id] = nil }
}
