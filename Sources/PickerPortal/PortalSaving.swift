#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// `SaveFile` with no other backend to forward it to: pickerd-portal's own prompt (`SavePrompt`) in
/// the terminal pick would use. The call stays pending until the prompt ends: 0 with the chosen path's
/// `file://` URI, 1 when it was cancelled (Ctrl-D, `n` to a replace, the window closed), 2 on `Close`
/// (the prompt's shell is ended).
extension PortalService {
    struct Save {
        let call: OpaquePointer
        let launch: PickLaunch
        let slot: OpaquePointer?
    }

    /// Starts the prompt for `call`; false when there is no terminal to show it in (or it cannot start).
    func saveHere(_ call: OpaquePointer, handle: String, title: String, options: [String: DBusValue]) -> Bool {
        guard let terminal = configuration.terminal, !terminal.isEmpty else { return false }
        let home = Environment.current["HOME"] ?? "/"
        do {
            let launch = try PickLaunch(terminal: terminal, runtimeDirectory: configuration.runtimeDirectory) { directory in
                SavePrompt.command(directory: directory, title: title, options: options, home: home)
            }
            let slot: OpaquePointer?
            do { slot = try bus.exportRequest(at: handle) } catch {
                launch.remove()
                throw error
            }
            bus.keep(call)
            saves[handle] = Save(call: call, launch: launch, slot: slot)
            return true
        } catch {
            Log.error("portal: \(handle): cannot start the save prompt: \(error)")
            return false
        }
    }

    /// The prompt ended with `status`: its answer, or a cancel.
    func saveEnded(_ handle: String, status: Int32) {
        guard let save = saves[handle] else { return }
        if status == 0, let path = SavePrompt.answer(in: save.launch.directory) {
            endSave(handle, ChooserResponse(code: ChooserResponse.success,
                                            results: .vardict([("uris", .array(element: "s", [.string(FileURI.from(path: path))]))])))
        } else {
            endSave(handle, .cancel)
        }
    }

    /// `Close` of a prompt's request (false when `handle` is not one): its shell is ended, the call answered 2.
    func closeSave(_ handle: String) -> Bool {
        guard let save = saves[handle] else { return false }
        if let pid = SavePrompt.pid(in: save.launch.directory) { kill(pid, SIGTERM) }
        endSave(handle, .ended)
        return true
    }

    /// A child ended: a terminal that failed before the prompt wrote its status ends the request.
    func saveTerminalEnded(_ pid: pid_t, status: Int32) {
        guard let (handle, save) = saves.first(where: { $0.value.launch.terminalPID == pid }) else { return }
        if let done = save.launch.status() { return saveEnded(handle, status: done) }
        if status != 0 {
            Log.error("portal: the terminal for \(handle) ended with status \(status) before the save prompt did")
            endSave(handle, .ended)
        }
    }

    func endSave(_ handle: String, _ response: ChooserResponse) {
        guard let save = saves.removeValue(forKey: handle) else { return }
        save.launch.remove()
        bus.removeObject(save.slot)
        bus.reply(to: save.call, response)
        bus.release(save.call)
        Log.info("portal: \(handle) answered \(response.code) (save prompt)")
    }
}
