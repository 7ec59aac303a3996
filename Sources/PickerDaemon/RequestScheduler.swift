import CPickerSys
import Dispatch

/// Runs request work off the socket thread. Requests naming the same session run in
/// arrival order on one serial queue (a fixed pool hashed by session name, so a client
/// inventing names cannot grow it); requests without a session run concurrently.
final class RequestScheduler: Sendable {
    private let sessionQueues: [DispatchQueue]
    private let concurrent = DispatchQueue(label: "pickerd.requests", attributes: .concurrent)

    init(queueCount: Int = 64) {
        sessionQueues = (0..<max(1, queueCount)).map { DispatchQueue(label: "pickerd.session.\($0)") }
    }

    func submit(session: String?, _ work: @escaping @Sendable () -> Void) {
        // Workers run below the socket thread's priority: under a pile of decodes the socket
        // thread still gets the CPU at once to accept, read, answer ping and write replies.
        let work: @Sendable () -> Void = {
            pk_lower_thread_priority(10)
            work()
        }
        guard let session else {
            concurrent.async(execute: work)
            return
        }
        // FNV-1a: stable and cheap; Swift's Hasher is seeded per process, which would also do.
        var h: UInt64 = 0xcbf29ce484222325
        for b in session.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        sessionQueues[Int(h % UInt64(sessionQueues.count))].async(execute: work)
    }
}
