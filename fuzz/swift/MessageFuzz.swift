// libFuzzer target "message": Request(frame:) and Reply(frame:) on a payload of a given type,
// without framing in the way. Input: byte 0 = message type, bytes 1...4 = request id, the rest is
// the payload. Built with Sources/PickerProtocol/*.swift as one module (see fuzz/build.sh).

@_cdecl("LLVMFuzzerTestOneInput")
public func messageFuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 5 else { return 0 }
    let type = data[0]
    let id = UInt32(data[1]) << 24 | UInt32(data[2]) << 16 | UInt32(data[3]) << 8 | UInt32(data[4])
    let payload = Array(UnsafeBufferPointer(start: data + 5, count: count - 5))
    let frame = Frame(type: type, requestID: id, payload: payload)
    do {
        let request = try Request(frame: frame)
        let back = try Request(frame: request.frame(id: id))
        if back != request { fatalError("request not stable under re-encoding: \(request)") }
    } catch {
        _ = error.message
    }
    do {
        let reply = try Reply(frame: frame)
        let back = try Reply(frame: reply.frame(id: id))
        if back != reply { fatalError("reply not stable under re-encoding: \(reply)") }
    } catch {
        _ = error.message
    }
    return 0
}
