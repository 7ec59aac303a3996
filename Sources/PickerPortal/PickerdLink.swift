import PickerClient
import PickerProtocol
import PickerSystem

/// pickerd-portal's connection to pickerd, made when first needed and made again once when the
/// daemon went away (a restart, an idle close).
final class PickerdLink {
    private let socketPath: String
    private var connection: PickerConnection?

    init(socketPath: String) { self.socketPath = socketPath }

    func call(_ request: Request) throws(ClientError) -> Reply {
        if let connection {
            do {
                return try connection.call(request)
            } catch {
                guard case .connectionLost = error else { throw error }
                self.connection = nil
            }
        }
        let fresh = try PickerConnection(socketPath: socketPath, clientName: "pickerd-portal")
        connection = fresh
        return try fresh.call(request)
    }

    /// The library's absolute root.
    func libraryRoot() throws(ClientError) -> String {
        guard case .libraryInfo(let info) = try call(.libraryInfo) else { throw .connectionLost("unexpected reply to library") }
        return info.root
    }

    /// Creates the request's session (one left by an earlier run under the same name is replaced).
    func openSession(_ plan: PickPlan) throws(ClientError) {
        let new = NewSession(name: plan.session, width: 800, height: 600, maxSelection: plan.maxSelection, title: plan.title)
        do {
            _ = try call(.sessionNew(new))
        } catch {
            guard case .server(let e) = error, e.code == .sessionExists else { throw error }
            _ = try call(.sessionClose(name: plan.session))
            _ = try call(.sessionNew(new))
        }
    }

    /// Closes the session: a pick still serving it ends (cancelled).
    func closeSession(_ name: String) {
        do {
            _ = try call(.sessionClose(name: name))
        } catch {
            if case .server(let e) = error, e.code == .noSuchSession { return }
            Log.error("portal: closing session \(name): \(error)")
        }
    }
}
