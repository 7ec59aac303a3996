#if canImport(Glibc)
import Glibc
#endif
import CSDBus
import PickerSystem

/// What pickerd-portal needs to hand a call on to another backend: an asynchronous call built from the
/// original one (same arguments, our own request handle first), its reply copied back unchanged, a
/// `Close` of the forwarded request, and the caller's pid (the frontend, whose portal files count).
extension PortalBus {
    /// Calls `method` of the FileChooser at `destination` with the arguments of `call` after its handle,
    /// `handle` instead of it, with no timeout (a dialog stays open as long as the user wants).
    /// - Returns: the call's cookie (its reply's reply cookie, for `forwardReplyHandler`) and its slot
    ///   (unref it to drop the reply).
    func forward(_ call: OpaquePointer, to destination: String, method: String, handle: String) throws(PortalFailure)
        -> (cookie: UInt64, slot: OpaquePointer?) {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, destination, Self.desktopPath, Self.fileChooser, method)
        guard r >= 0, let message else { throw PortalFailure("cannot make the call to \(destination): \(Errno(rawValue: -r))") }
        defer { sd_bus_message_unref(message) }
        r = sd_bus_message_rewind(call, 1)
        if r >= 0 { r = sd_bus_message_skip(call, "o") }
        if r >= 0 { r = DBusMessageWriter(message: message).append(.objectPath(handle)) }
        if r >= 0 { r = sd_bus_message_copy(message, call, 1) }
        guard r >= 0 else { throw PortalFailure("cannot copy the call's arguments: \(Errno(rawValue: -r))") }
        var slot: OpaquePointer?
        r = sd_bus_call_async(bus, &slot, message, Self.replyTrampoline, Unmanaged.passUnretained(self).toOpaque(), UInt64.max)
        guard r >= 0 else { throw PortalFailure("cannot call \(destination): \(Errno(rawValue: -r))") }
        var cookie: UInt64 = 0
        _ = sd_bus_message_get_cookie(message, &cookie)
        return (cookie, slot)
    }

    private static let replyTrampoline: sd_bus_message_handler_t = { reply, context, _ in
        guard let reply, let context else { return 0 }
        var cookie: UInt64 = 0
        guard sd_bus_message_get_reply_cookie(reply, &cookie) >= 0 else { return 0 }
        Unmanaged<PortalBus>.fromOpaque(context).takeUnretainedValue().forwardReplyHandler(cookie, reply)
        return 1
    }

    /// The error of a reply (`name: message`), nil for a method return.
    func error(of reply: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(reply, nil) > 0 else { return nil }
        let e = sd_bus_message_get_error(reply)
        let name = e?.pointee.name.map { String(cString: $0) } ?? "error"
        return e?.pointee.message.map { name + ": " + String(String(cString: $0).prefix(300)) } ?? name
    }

    /// Answers `call` with the body of `reply` (the other backend's `(u response, a{sv} results)`),
    /// byte for byte; false when it could not be copied.
    func relay(_ reply: OpaquePointer, to call: OpaquePointer) -> Bool {
        var answer: OpaquePointer?
        guard sd_bus_message_new_method_return(call, &answer) >= 0, let answer else { return false }
        defer { sd_bus_message_unref(answer) }
        guard sd_bus_message_rewind(reply, 1) >= 0, sd_bus_message_copy(answer, reply, 1) >= 0 else { return false }
        let r = sd_bus_send(bus, answer, nil)
        if r < 0 { Log.error("portal: cannot send a reply: \(Errno(rawValue: -r))") }
        return r >= 0
    }

    /// `org.freedesktop.impl.portal.Request.Close` on `handle` at `destination`, its reply not awaited.
    func sendClose(to destination: String, handle: String) {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, handle, "org.freedesktop.impl.portal.Request", "Close") >= 0,
              let message else { return }
        defer { sd_bus_message_unref(message) }
        _ = sd_bus_message_set_expect_reply(message, 0)
        let r = sd_bus_send(bus, message, nil)
        if r < 0 { Log.error("portal: cannot send Close to \(destination): \(Errno(rawValue: -r))") }
    }

    /// The pid of the connection that sent `call` (asked of the bus), nil when the bus does not say.
    func senderPID(of call: OpaquePointer) -> Int? {
        guard let sender = sd_bus_message_get_sender(call) else { return nil }
        var creds: OpaquePointer?
        guard sd_bus_get_name_creds(bus, sender, UInt64(SD_BUS_CREDS_PID), &creds) >= 0, let creds else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var pid: pid_t = 0
        return sd_bus_creds_get_pid(creds, &pid) >= 0 && pid > 0 ? Int(pid) : nil
    }
}
