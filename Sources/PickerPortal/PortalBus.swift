#if canImport(Glibc)
import Glibc
#endif
import CPickerBus
import CSDBus
import PickerSystem

/// The session bus connection (sd-bus) and the objects pickerd-portal exports on it. One thread:
/// `processAll` dispatches method calls to `handler`, which answers or keeps the call for later.
final class PortalBus {
    static let name = "org.freedesktop.impl.portal.desktop.pickerd"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let desktopPath = "/org/freedesktop/portal/desktop"
    static let fileChooser = "org.freedesktop.impl.portal.FileChooser"

    let bus: OpaquePointer
    private var chooserSlot: OpaquePointer?
    /// (call, method number from pk_bus.h) → 1 when answered or kept, else a negative errno.
    var handler: (OpaquePointer, Int32) -> Int32 = { _, _ in -ENOSYS }
    /// (reply cookie, reply) of a call `forward` made.
    var forwardReplyHandler: (UInt64, OpaquePointer) -> Void = { _, _ in }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`) and exports the FileChooser.
    init() throws(PortalFailure) {
        var opened: OpaquePointer?
        let r = sd_bus_open_user(&opened)
        guard r >= 0, let opened else { throw PortalFailure("cannot connect to the session bus: \(Errno(rawValue: -r))") }
        bus = opened
        let e = pk_bus_export_file_chooser(bus, Self.trampoline, Unmanaged.passUnretained(self).toOpaque(), &chooserSlot)
        guard e >= 0 else { throw PortalFailure("cannot export the FileChooser: \(Errno(rawValue: -e))") }
    }

    deinit {
        sd_bus_slot_unref(chooserSlot)
        sd_bus_flush_close_unref(bus)
    }

    private static let trampoline: pk_bus_handler = { context, message, method in
        guard let context, let message else { return -EINVAL }
        return Unmanaged<PortalBus>.fromOpaque(context).takeUnretainedValue().handler(message, method)
    }

    /// Owns the backend's well-known name (`replace`: takes it from a running one).
    func requestName(replace: Bool) throws(PortalFailure) {
        let flags = UInt64(SD_BUS_NAME_ALLOW_REPLACEMENT) | (replace ? UInt64(SD_BUS_NAME_REPLACE_EXISTING) : 0)
        let r = sd_bus_request_name(bus, Self.name, flags)
        guard r >= 0 else { throw PortalFailure("cannot own \(Self.name): \(Errno(rawValue: -r)) (another pickerd-portal runs? --replace takes over)") }
    }

    /// Exports a Request object (Close) at `path`; unref the slot to remove it.
    func exportRequest(at path: String) throws(PortalFailure) -> OpaquePointer? {
        var slot: OpaquePointer?
        let r = pk_bus_export_request(bus, path, Self.trampoline, Unmanaged.passUnretained(self).toOpaque(), &slot)
        guard r >= 0 else { throw PortalFailure("cannot export the request \(path): \(Errno(rawValue: -r))") }
        return slot
    }

    /// Dispatches everything that has arrived. False when the connection is gone.
    func processAll() -> Bool {
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 { return false }
            if r == 0 { return true }
        }
    }

    /// The descriptor, events and timeout (ms, -1 for none) to poll for.
    func pollRequest() -> (descriptor: Int32, events: Int16, timeoutMs: Int32) {
        let events = Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus)))
        var usec: UInt64 = 0
        var timeout: Int32 = -1
        if sd_bus_get_timeout(bus, &usec) > 0 && usec != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            timeout = usec <= nowUsec ? 0 : Int32(clamping: (usec - nowUsec + 999) / 1000)
        }
        return (sd_bus_get_fd(bus), events, timeout)
    }

    /// The call's arguments as values.
    func arguments(of call: OpaquePointer) -> [DBusValue]? {
        try? DBusMessageReader(message: call).readAll()
    }

    /// The object path a call was made on.
    func path(of call: OpaquePointer) -> String {
        sd_bus_message_get_path(call).map { String(cString: $0) } ?? ""
    }

    /// Answers `call` with `(u response, a{sv} results)`.
    func reply(to call: OpaquePointer, _ response: ChooserResponse) {
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_return(call, &reply) >= 0, let reply else { return }
        defer { sd_bus_message_unref(reply) }
        let writer = DBusMessageWriter(message: reply)
        guard writer.append(.uint32(response.code)) >= 0, writer.append(response.results) >= 0 else {
            Log.error("portal: cannot build a reply")
            return
        }
        let r = sd_bus_send(bus, reply, nil)
        if r < 0 { Log.error("portal: cannot send a reply: \(Errno(rawValue: -r))") }
    }

    func replyError(to call: OpaquePointer, _ name: String, _ text: String) {
        _ = pk_bus_reply_error(call, name, text)
    }

    func replyEmpty(to call: OpaquePointer) { _ = pk_bus_reply_empty(call) }

    func keep(_ call: OpaquePointer) { sd_bus_message_ref(call) }
    func release(_ call: OpaquePointer) { sd_bus_message_unref(call) }
    func removeObject(_ slot: OpaquePointer?) { sd_bus_slot_unref(slot) }
}
