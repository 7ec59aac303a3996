#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// The one thread of pickerd-portal: polls the bus, a signalfd (SIGCHLD, SIGTERM, SIGINT,
/// SIGHUP), each open request's session events and its pick's FIFO, each save prompt's FIFO, and
/// hands what arrives to the service.
extension PortalService {
    /// Runs until SIGTERM/SIGINT/SIGHUP or the bus goes away; returns the exit status.
    public func run() -> Int32 {
        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor([SIGCHLD, SIGTERM, SIGINT, SIGHUP])
        } catch {
            Log.error("portal: \(error)")
            return 1
        }
        Log.info("portal: serving \(PortalBus.name); pickerd at \(configuration.socketPath)")
        while true {
            guard bus.processAll() else {
                Log.error("portal: the session bus went away")
                finishAll()
                return 1
            }
            let handles = Array(pending.keys)
            let saving = Array(saves.keys)
            let wait = bus.pollRequest()
            var fds = [pollfd(fd: wait.descriptor, events: wait.events, revents: 0),
                       pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0)]
            // Two a request: its session events, and its pick's FIFO (-1, ignored by poll, without one).
            for handle in handles {
                fds.append(pollfd(fd: pending[handle]?.watch.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
                fds.append(pollfd(fd: pending[handle]?.launch?.doneDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
            }
            // One a save prompt: its FIFO.
            for handle in saving { fds.append(pollfd(fd: saves[handle]?.launch.doneDescriptor ?? -1, events: Int16(POLLIN), revents: 0)) }
            let n = poll(&fds, nfds_t(fds.count), wait.timeoutMs)
            if n < 0 && errno != EINTR {
                Log.error("portal: poll: \(Errno.current)")
                return 1
            }
            for (i, handle) in handles.enumerated() {
                // The session's events first: pick's finish is the answer, its exit only a fallback.
                if fds[2 + 2 * i].revents != 0 { sessionEventsArrived(handle) }
                if fds[2 + 2 * i + 1].revents != 0, let status = pending[handle]?.launch?.status() { pickEnded(handle, status: status) }
            }
            for (i, handle) in saving.enumerated() where fds[2 + 2 * handles.count + i].revents != 0 {
                if let status = saves[handle]?.launch.status() { saveEnded(handle, status: status) }
            }
            if fds[1].revents != 0, handleSignals(signals.drain()) {
                finishAll()
                _ = bus.processAll()
                Log.info("portal: stopped")
                return 0
            }
        }
    }

    /// Reaps children; true when a stop signal came.
    private func handleSignals(_ received: [Int32]) -> Bool {
        if received.contains(SIGCHLD) {
            var status: Int32 = 0
            while case let pid = waitpid(-1, &status, WNOHANG), pid > 0 {
                childEnded(pid, status: status)
            }
        }
        return received.contains { $0 == SIGTERM || $0 == SIGINT || $0 == SIGHUP }
    }
}
