#if canImport(Glibc)
import Glibc
#endif
import PickerPortalRules
import PickerSystem

/// "What is not a photo pick is not ours": `SaveFile`, `SaveFiles`, and an `OpenFile` for a folder or
/// for files no photo passes go to the desktop's own FileChooser backend (`ForwardTarget`). The
/// frontend's call stays pending (as a pick's does) until that backend answers; its answer is relayed
/// unchanged. The backend gets a request handle of ours; the frontend's `Request.Close` on its own
/// handle becomes a `Close` of ours at the backend. With no other backend: response 2 and a log line
/// saying what to install.
extension PortalService {
    struct Forward {
        /// The frontend's call, kept until it is answered.
        let call: OpaquePointer
        /// The frontend's request handle (our Request object is exported there).
        let handle: String
        /// The handle we gave the other backend.
        let theirHandle: String
        let destination: String
        let method: String
        let requestSlot: OpaquePointer?
        let callSlot: OpaquePointer?
    }

    /// Forwards `call` (`method`, already checked: `handle`, `appID`) because of `why`. With no other
    /// backend, a `SaveFile` is served by pickerd-portal's own prompt when a terminal is configured.
    func forward(_ call: OpaquePointer, method: String, handle: String, appID: String, why: String,
                 title: String, options: [String: DBusValue]) {
        let lookup = ForwardTarget.lookup(callerPID: bus.senderPID(of: call), own: PortalEnvironment())
        let choice = ForwardTarget.choose(forward: configuration.forward, lookup: lookup)
        let what = "\(method) from '\(InertText.escaped(appID))' (\(handle)) is not a photo pick (\(why))"
        guard let target = choice.target else {
            let install = "install the desktop's own, e.g. apt install xdg-desktop-portal-gtk (or -gnome, -kde), "
                + "or name one with `forward =` in portal.conf"
            if method == "SaveFile", saveHere(call, handle: handle, title: title, options: options) {
                Log.info("portal: \(what) and there is no other FileChooser backend to forward it to (\(choice.reason)): "
                         + "pickerd-portal's own save prompt serves it; for the desktop's save dialog \(install)")
                return
            }
            Log.error("portal: \(what) and there is no other FileChooser backend to forward it to (\(choice.reason)): "
                      + "\(install); response 2")
            return bus.reply(to: call, .ended)
        }
        forwardCount += 1
        let theirs = "/org/freedesktop/portal/desktop/request/pickerd_\(getpid())/f\(forwardCount)"
        var requestSlot: OpaquePointer?
        do {
            requestSlot = try bus.exportRequest(at: handle)
            let sent = try bus.forward(call, to: target.dbusName, method: method, handle: theirs)
            bus.keep(call)
            forwards[sent.cookie] = Forward(call: call, handle: handle, theirHandle: theirs, destination: target.dbusName,
                                            method: method, requestSlot: requestSlot, callSlot: sent.slot)
            Log.info("portal: \(what): forwarded to \(target.name) (\(target.dbusName)) as \(theirs); \(target.reason)")
        } catch {
            bus.removeObject(requestSlot)
            Log.error("portal: \(what); forwarding it to \(target.dbusName) failed: \(error); response 2")
            bus.reply(to: call, .ended)
        }
    }

    /// The other backend answered the call with `cookie`: its answer is the frontend's.
    func forwardReplied(_ cookie: UInt64, _ reply: OpaquePointer) {
        guard let request = forwards.removeValue(forKey: cookie) else { return }
        if let error = bus.error(of: reply) {
            Log.error("portal: \(request.destination) answered \(request.method) (\(request.handle)) with \(error); response 2")
            bus.reply(to: request.call, .ended)
        } else if !bus.relay(reply, to: request.call) {
            Log.error("portal: cannot relay the answer of \(request.destination) to \(request.handle); response 2")
            bus.reply(to: request.call, .ended)
        } else {
            Log.info("portal: \(request.handle) answered by \(request.destination)")
        }
        end(request)
    }

    /// The frontend's `Close` of a forwarded request (false when `handle` is not one): the other backend
    /// gets a `Close` of its request, the frontend's call ends with response 2.
    func closeForward(_ handle: String) -> Bool {
        guard let (cookie, request) = forwards.first(where: { $0.value.handle == handle }) else { return false }
        forwards[cookie] = nil
        bus.sendClose(to: request.destination, handle: request.theirHandle)
        bus.reply(to: request.call, .ended)
        Log.info("portal: \(handle) closed; Close sent to \(request.destination) for \(request.theirHandle)")
        end(request)
        return true
    }

    /// Whether `handle` names a forwarded request still open.
    func isForwarded(_ handle: String) -> Bool { forwards.values.contains { $0.handle == handle } }

    /// Shutting down: every forwarded request is closed at the other backend and ends with response 2.
    func closeAllForwards() {
        for handle in forwards.values.map(\.handle) { _ = closeForward(handle) }
    }

    private func end(_ request: Forward) {
        bus.removeObject(request.callSlot)
        bus.removeObject(request.requestSlot)
        bus.release(request.call)
    }
}
