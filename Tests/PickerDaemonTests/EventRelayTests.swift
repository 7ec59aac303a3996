import Foundation
@testable import PickerDaemon
import PickerProtocol
import Synchronization
import Testing

/// The relay that carries engine events to the server: calling it must cost the same after many
/// events as after one (a closure kept bare in a `Mutex` grew by two thunks per call).
@Suite struct EventRelayTests {
    @Test func stackDepthOfADeliveryDoesNotGrowWithTheEventsSentBefore() {
        let depths = Mutex<[UInt]>([])
        let relay = EventRelay()
        relay.connect { _ in
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            depths.withLock { $0.append(address) }
        }
        let event = Event.scanProgress(ScanProgress(state: .ready, filesDone: 1, filesExpected: 1,
                                                    elapsedMilliseconds: 0))
        let done = DispatchSemaphore(value: 0)
        // A thread of its own with a large stack, so the old behaviour fails the expectation
        // instead of overflowing the stack of a test-runner thread.
        let thread = Thread {
            for _ in 0..<5_000 { relay.send(event) }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        let seen = depths.withLock { $0 }
        #expect(seen.count == 5_000)
        guard let first = seen.first, let last = seen.last else { return }
        // The stack grows down: a deeper call has a lower address.
        let growth = first > last ? first - last : 0
        #expect(growth < 4096, "delivery 5000 ran \(growth) bytes deeper than delivery 1")
    }
}
