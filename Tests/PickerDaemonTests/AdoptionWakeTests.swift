#if canImport(Glibc)
import Glibc
#endif
@testable import PickerDaemon
import PickerProtocol
import Testing

/// `Server.adopt` hands a descriptor to the socket thread and wakes it. A wake that arrives while
/// the loop is between taking the adoptions and resetting the eventfd must not be lost: the
/// descriptor would wait, unserved, for some later wake (this is how a second in-process
/// connection's hello once read nil after the 30 s receive guard).
@Suite struct AdoptionWakeTests {
    @Test func connectionsAdoptedInQuickSuccessionAreAllAdmittedWithoutAnotherWake() throws {
        let host = try InProcessServer { _ in .pong(serverVersion: "x") }
        defer { host.stop() }
        for round in 0..<20 {
            var clients: [TestClient] = []
            for _ in 0..<100 { clients.append(try host.connect()) }
            // Nothing else wakes the loop here: only the adoptions' own wakes can admit them.
            let admitted = host.eventually(seconds: 5) { host.server.connectionCount == clients.count }
            #expect(admitted, "round \(round): \(host.server.connectionCount) of \(clients.count) admitted")
            if !admitted { return }
            clients.forEach { $0.close() }
            #expect(host.eventually(seconds: 5) { host.server.connectionCount == 0 }, "round \(round): closed")
        }
    }
}
