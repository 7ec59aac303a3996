// libFuzzer target "frame": the byte stream a server or a client reads from the socket.
// Built together with Sources/PickerProtocol/*.swift into one module (see fuzz/build.sh), so
// there is no `import PickerProtocol`.
//
// The input is split into pieces (sizes taken from the first byte), appended to a FrameDecoder
// piece by piece as a socket would deliver them, with the maximum frame length the server uses
// (or a tiny one, chosen by the same byte). Every frame that comes out is decoded as a Request
// and as a Reply; whatever decodes must re-encode to bytes that decode to the same value, and a
// re-encoded frame must come back out of a fresh FrameDecoder unchanged.

@_cdecl("LLVMFuzzerTestOneInput")
public func frameFuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let control = data[0]
    let input = Array(UnsafeBufferPointer(start: data + 1, count: count - 1))
    let maxLength: UInt32 = control & 0x80 != 0 ? 64 : ProtocolLimits.maxRequestFrame
    let piece = Int(control & 0x0F) + 1  // 1...16 bytes per read, or the whole input
    var decoder = FrameDecoder(maxFrameLength: maxLength)
    var offset = 0
    stream: while offset < input.count {
        let end = control & 0x40 != 0 ? input.count : min(input.count, offset + piece)
        decoder.append(input[offset..<end])
        offset = end
        // Each frame consumes at least 9 bytes, so this loop is bounded by the input size.
        while true {
            let frame: Frame?
            do {
                frame = try decoder.next()
            } catch {
                _ = error.pickerError  // the refusal must render
                break stream
            }
            guard let frame else { break }
            if frame.payload.count + 5 > Int(maxLength) { fatalError("frame over the maximum got through") }
            exercise(frame)
        }
    }
    if decoder.bufferedByteCount > input.count { fatalError("decoder holds more than it was given") }
    return 0
}

func exercise(_ frame: Frame) {
    let wire = frame.encoded()
    var again = FrameDecoder(maxFrameLength: UInt32.max)
    again.append(wire)
    guard let copy = try? again.next(), copy == frame else { fatalError("frame does not survive re-framing") }
    if let request = try? Request(frame: frame) {
        guard let back = try? Request(frame: request.frame(id: frame.requestID)), back == request else {
            fatalError("request not stable under re-encoding: \(request)")
        }
    }
    if let reply = try? Reply(frame: frame) {
        guard let back = try? Reply(frame: reply.frame(id: frame.requestID)), back == reply else {
            fatalError("reply not stable under re-encoding: \(reply)")
        }
    }
}
