#if canImport(Glibc)
import Glibc
#endif
import CPickerBus
import PickerSystem

/// The FileChooser backend: each `OpenFile` becomes a pickerd session, served by `pick` in a
/// terminal window (or, with `terminal = none`, by whichever client the user serves it with). The
/// call is answered when the session is finished (accepted: its picks; cancelled), closed, or when
/// the frontend calls `Close` on the request (the session is then closed, which ends the pick).
/// Saving, folders and files no photo passes go to the desktop's own backend (PortalForwarding.swift).
/// One thread; see `PortalLoop`.
public final class PortalService {
    struct Pending {
        let call: OpaquePointer
        let plan: PickPlan
        /// pick's window; nil with `terminal = none`, and once pick has ended.
        var launch: PickLaunch?
        let slot: OpaquePointer?
        let watch: SessionWatch
        /// The app's id, as the frontend gave it ("" when it could not tell).
        let appID: String
    }

    let bus: PortalBus
    let configuration: PortalConfiguration
    private let pickerd: PickerdLink
    private(set) var pending: [String: Pending] = [:]
    /// Requests handed to the other backend (PortalForwarding.swift), by the cookie of our call to it.
    var forwards: [UInt64: Forward] = [:]
    var forwardCount = 0
    /// SaveFile requests served by pickerd-portal's own prompt (PortalSaving.swift), by handle.
    var saves: [String: Save] = [:]

    public init(_ configuration: PortalConfiguration) throws(PortalFailure) {
        self.configuration = configuration
        pickerd = PickerdLink(socketPath: configuration.socketPath)
        bus = try PortalBus()
        bus.handler = { [unowned self] call, method in self.handle(call, method: method) }
        bus.forwardReplyHandler = { [unowned self] cookie, reply in self.forwardReplied(cookie, reply) }
        try bus.requestName(replace: configuration.replace)
    }

    private func handle(_ call: OpaquePointer, method: Int32) -> Int32 {
        switch method {
        case Int32(PK_BUS_OPEN_FILE.rawValue): openFile(call)
        case Int32(PK_BUS_REQUEST_CLOSE.rawValue): close(call)
        case Int32(PK_BUS_SAVE_FILE.rawValue): save(call, method: "SaveFile")
        default: save(call, method: "SaveFiles")
        }
        return 1
    }

    /// The request's handle and app id, when `call` has FileChooser's arguments `(o, s, s, s, a{sv})`.
    private func requestArguments(_ call: OpaquePointer) -> (handle: String, appID: String, title: String, options: [String: DBusValue])? {
        guard let args = bus.arguments(of: call), args.count == 5, case .objectPath(let handle) = args[0],
              case .string(let appID) = args[1], case .string = args[2], case .string(let title) = args[3],
              let entries = args[4].vardictEntries else { return nil }
        return (handle, appID, title, entries)
    }

    private func isOpen(_ handle: String) -> Bool { pending[handle] != nil || saves[handle] != nil || isForwarded(handle) }

    /// Saving is never a photo pick: forwarded to the desktop's own backend.
    private func save(_ call: OpaquePointer, method: String) {
        guard let request = requestArguments(call) else {
            return bus.replyError(to: call, PortalBus.invalidArgs, "\(method) takes (o handle, s app_id, s parent_window, s title, a{sv} options)")
        }
        guard !isOpen(request.handle) else {
            return bus.replyError(to: call, PortalBus.invalidArgs, "the request \(request.handle) is already open")
        }
        forward(call, method: method, handle: request.handle, appID: request.appID, why: "saving",
                title: request.title, options: request.options)
    }

    private func openFile(_ call: OpaquePointer) {
        guard let (handle, appID, title, entries) = requestArguments(call) else {
            return bus.replyError(to: call, PortalBus.invalidArgs, "OpenFile takes (o handle, s app_id, s parent_window, s title, a{sv} options)")
        }
        let options: OpenFileOptions
        do {
            options = try OpenFileOptions(entries)
        } catch {
            return bus.replyError(to: call, PortalBus.invalidArgs, error.description)
        }
        guard !isOpen(handle) else {
            return bus.replyError(to: call, PortalBus.invalidArgs, "the request \(handle) is already open")
        }
        if let why = PickPlan.whyNotAPhotoPick(options) {
            return forward(call, method: "OpenFile", handle: handle, appID: appID, why: why, title: title, options: entries)
        }
        Log.info("portal: OpenFile from '\(InertText.escaped(appID))' (\(handle))")
        do {
            try start(call, handle: handle, appID: appID, title: title, options: options)
        } catch {
            Log.error("portal: \(handle): \(error)")
            bus.reply(to: call, .ended)
        }
    }

    private func start(_ call: OpaquePointer, handle: String, appID: String, title: String,
                       options: OpenFileOptions) throws(PortalFailure) {
        let root: String
        do { root = try pickerd.libraryRoot() } catch { throw PortalFailure("\(error)") }
        let token = handle.split(separator: "/").last.map(String.init) ?? ""
        let plan: PickPlan
        let busy = Set(pending.values.map(\.plan.session))
        switch PickPlan.decide(options, title: title, appID: appID, token: token, libraryRoot: root, busy: busy) {
        case .pick(let p): plan = p
        case .notAPhotoPick(let why): throw PortalFailure("not a photo pick: \(why)")
        }
        guard let terminal = configuration.terminal else {
            throw PortalFailure("no terminal to run pick in (set PICKERD_PORTAL_TERMINAL or `terminal =` in portal.conf)")
        }
        let watch: SessionWatch
        do {
            try pickerd.openSession(plan)
            watch = try SessionWatch(socketPath: configuration.socketPath, session: plan.session)
        } catch {
            pickerd.closeSession(plan.session)
            throw PortalFailure("\(error)")
        }
        let launch: PickLaunch?
        let slot: OpaquePointer?
        do {
            launch = terminal.isEmpty ? nil
                : try PickLaunch(terminal: terminal, pickCommand: pickCommand(plan), runtimeDirectory: configuration.runtimeDirectory)
            slot = try bus.exportRequest(at: handle)
        } catch {
            pickerd.closeSession(plan.session)
            throw error
        }
        if launch == nil { Log.info("portal: \(handle) waits for a client to serve session \(plan.session) (terminal = none)") }
        bus.keep(call)
        pending[handle] = Pending(call: call, plan: plan, launch: launch, slot: slot, watch: watch, appID: appID)
    }

    private func pickCommand(_ plan: PickPlan) -> [String] {
        [configuration.pickerctl, "--socket", configuration.socketPath, "--session", plan.session, "pick", "-0"]
            + (plan.maxSelection == 1 ? ["--single"] : []) + (plan.album.map { ["--album", $0] } ?? [])
    }

    /// `Request.Close`: the dialog is to go away; the call ends with response 2.
    private func close(_ call: OpaquePointer) {
        let handle = bus.path(of: call)
        Log.info("portal: Close \(handle)")
        if !closeForward(handle) && !closeSave(handle) { finish(handle, .ended) }
        bus.replyEmpty(to: call)
    }

    /// Answers the request, removes its object and folder, and closes its session (ending a pick
    /// that still runs).
    func finish(_ handle: String, _ response: ChooserResponse) {
        guard let request = pending.removeValue(forKey: handle) else { return }
        request.launch?.remove()
        pickerd.closeSession(request.plan.session)
        bus.removeObject(request.slot)
        bus.reply(to: request.call, response)
        bus.release(request.call)
        Log.info("portal: \(handle) answered \(response.code)")
    }

    /// The session's events arrived: an accepted session answers with its picks, a cancelled one
    /// with 1, a closed one (or pickerd gone) with 2.
    func sessionEventsArrived(_ handle: String) {
        guard let request = pending[handle], let end = request.watch.readEnd() else { return }
        switch end {
        case .accepted: finish(handle, accepted(request))
        case .cancelled: finish(handle, .cancel)
        case .closed: finish(handle, .ended)
        }
    }

    private func accepted(_ request: Pending) -> ChooserResponse {
        do {
            guard case .selection(let list) = try pickerd.call(.selection(session: request.plan.session)) else { return .ended }
            let paths = list.photos.map(\.absolutePath)
            RecentlyUsed.record(ChooserResponse.passing(paths, plan: request.plan), appID: request.appID)
            let values = request.plan.choices.isEmpty ? [:] : pickerd.choiceValues(request.plan.session)
            return .accepted(paths, plan: request.plan, values: values)
        } catch {
            Log.error("portal: reading the picks of \(request.plan.session): \(error)")
            return .ended
        }
    }

    /// pick ended (its wrapper wrote its status). pick finishes the session itself on Enter and Esc;
    /// one that ended another way did not, so the session is finished as cancelled here. pickerd
    /// refuses that when pick already finished it: either way the answer comes from the session's event.
    func pickEnded(_ handle: String, status: Int32) {
        guard let request = pending[handle] else { return }
        request.launch?.remove()
        pending[handle]?.launch = nil
        do {
            _ = try pickerd.call(.sessionFinish(session: request.plan.session, .cancelled))
        } catch {
            if case .server = error { return }  // already finished, or closed: its event is on the way
            Log.error("portal: \(handle): \(error)")
            finish(handle, .ended)
        }
    }

    /// A child ended: a terminal that failed before pick wrote its status ends its request.
    func childEnded(_ pid: pid_t, status: Int32) {
        saveTerminalEnded(pid, status: status)
        guard let (handle, request) = pending.first(where: { $0.value.launch?.terminalPID == pid }),
              let launch = request.launch else { return }
        if let picked = launch.status() { return pickEnded(handle, status: picked) }
        if status != 0 {
            Log.error("portal: the terminal for \(handle) ended with status \(status) before pick did")
            finish(handle, .ended)
        }
    }

    /// Shutting down: every open request ends with response 2.
    func finishAll() {
        for handle in pending.keys { finish(handle, .ended) }
        closeAllForwards()
        for handle in saves.keys { _ = closeSave(handle) }
    }
}
