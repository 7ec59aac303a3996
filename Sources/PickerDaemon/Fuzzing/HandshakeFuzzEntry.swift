import PickerEngine
import PickerProtocol

/// Fuzz target "handshake": `ConnectionState` fed a client's byte stream, as the event loop
/// feeds it from the socket.
///
/// Byte 0 of the input says how the rest arrives: bits 0–3 give the read size (1–16 bytes),
/// bit 6 delivers everything in one read, bit 7 ends with the incomplete-frame timeout. The
/// state machine must keep its promises: nothing dispatched before the `hello` reply, never a
/// `hello` dispatched (a repeated `hello` is answered again, as `docs/PROTOCOL.md` says), nothing
/// after `close`, every frame it sends a readable reply, no more
/// than one unfinished frame held.
public enum HandshakeFuzzEntry {
    static let capabilities = Capabilities(version: ProtocolLimits.version, serverVersion: "fuzz",
                                           maxRequestFrame: ProtocolLimits.maxRequestFrame,
                                           maxReplyFrame: ProtocolLimits.maxRequestFrame,
                                           inputFormats: [.jpeg, .png, .webp], outputFormats: [.png])

    public static func run(_ bytes: [UInt8]) -> FuzzFindings {
        var findings = FuzzFindings()
        guard let control = bytes.first else { return findings }
        let stream = bytes.dropFirst()
        let piece = control & 0x40 != 0 ? max(1, stream.count) : Int(control & 0x0F) + 1
        var state = ConnectionState(capabilities: capabilities)
        var log = Observed()
        var offset = stream.startIndex
        while offset < stream.endIndex {
            let end = min(stream.endIndex, offset + piece)
            log.check(state.received(stream[offset..<end]), findings: &findings)
            offset = end
            check(state, log, findings: &findings)
        }
        if control & 0x80 != 0 {
            log.check(state.timedOut(after: 30), findings: &findings)
            findings.expect(state.closing, "still open after the incomplete-frame timeout")
        }
        return findings
    }

    private static func check(_ state: ConnectionState, _ log: Observed, findings: inout FuzzFindings) {
        findings.expect(state.closing == log.closed, "closing is \(state.closing), a close was \(log.closed ? "" : "not ")returned")
        findings.expect(state.handshakeDone == log.helloAnswered, "handshakeDone is \(state.handshakeDone), hello answered: \(log.helloAnswered)")
        if !state.closing {
            findings.expect(state.bufferedByteCount < 4 + Int(ProtocolLimits.maxRequestFrame),
                            "\(state.bufferedByteCount) bytes held, more than one frame")
        }
    }

    /// What the state machine has returned so far.
    private struct Observed {
        var closed = false
        var helloAnswered = false

        mutating func check(_ actions: [ConnectionState.Action], findings: inout FuzzFindings) {
            for action in actions {
                findings.expect(!closed, "\(action) returned after close")
                switch action {
                case .close:
                    closed = true
                case .dispatch(_, let request):
                    findings.expect(helloAnswered, "\(request) dispatched before the hello reply")
                    if case .hello = request { findings.expect(false, "hello dispatched to a worker") }
                case .send(let frame):
                    let reply: Reply
                    do {
                        reply = try Reply(frame: frame)
                    } catch {
                        findings.expect(false, "sent a frame that is not a readable reply: \(error)")
                        continue
                    }
                    if case .hello(let sent) = reply {
                        findings.expect(sent == capabilities, "hello reply with other capabilities: \(sent)")
                        helloAnswered = true
                    }
                }
            }
        }
    }
}
