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

    /// Creates the request's session with the dialog's choices (one left by an earlier run under the same
    /// name is replaced). Choices pickerd refuses (a label with control characters, too many) or cannot read
    /// (a daemon from before them answers `malformed_frame`) are left out: the dialog still opens, and
    /// answers their initial values.
    func openSession(_ plan: PickPlan) throws(ClientError) {
        let new = NewSession(name: plan.session, width: 800, height: 600, maxSelection: plan.maxSelection, title: plan.title,
                             choices: plan.choices.map(\.sessionChoice), filter: plan.sessionFilter)
        do throws(ClientError) {
            try create(new)
        } catch {
            guard case .server(let e) = error, e.code == .invalidArgument || e.code == .malformedFrame,
                  !new.choices.isEmpty || !new.filter.isEmpty else { throw error }
            Log.error("portal: session \(plan.session) without its choices and filter (pickerd: \(e.message)); the choices answer their initial values, the picks are filtered at the answer")
            var plain = new
            plain.choices = []
            plain.filter = []
            try create(plain)
        }
    }

    private func create(_ new: NewSession) throws(ClientError) {
        do {
            _ = try call(.sessionNew(new))
        } catch {
            guard case .server(let e) = error, e.code == .sessionExists else { throw error }
            _ = try call(.sessionClose(name: new.name))
            _ = try call(.sessionNew(new))
        }
    }

    /// The session's choices now, by id; empty when it has none or pickerd does not know choices.
    func choiceValues(_ session: String) -> [String: String] {
        do {
            guard case .choices(let list) = try call(.choices(session: session)) else { return [:] }
            return Dictionary(list.map { ($0.id, $0.value) }, uniquingKeysWith: { first, _ in first })
        } catch {
            Log.error("portal: reading the choices of \(session): \(error); answering their initial values")
            return [:]
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
