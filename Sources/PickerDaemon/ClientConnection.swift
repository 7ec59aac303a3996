import PickerProtocol
import PickerSystem

/// A connected client as the socket thread sees it: its descriptor, its state machine, and
/// which epoll events are registered for it. Touched only on the socket thread.
final class ClientConnection {
    let id: UInt64
    let fd: Int32
    var machine: ConnectionMachine
    /// Whether EPOLLIN / EPOLLOUT are currently registered.
    var reading = true
    var writing = false

    init(id: UInt64, fd: Int32, machine: ConnectionMachine) {
        self.id = id
        self.fd = fd
        self.machine = machine
    }

    /// Writes what the socket takes. Returns nil when the peer is gone, else the actions that follow.
    func flush() -> [ConnectionMachine.Action]? {
        let fd = self.fd
        return machine.flush { bytes throws(SystemError) in try FileDescriptorIO.send(fd, bytes) }
    }
}
