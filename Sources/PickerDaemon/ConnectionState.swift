import PickerProtocol

/// One client's protocol state: framing, the handshake, and what to do with each frame.
/// Pure: the event loop feeds it bytes and carries out the actions it returns.
struct ConnectionState {
    enum Action: Equatable {
        /// Send this frame.
        case send(Frame)
        /// Run this request on a worker and send its reply.
        case dispatch(id: UInt32, Request)
        /// Flush what is queued, then close.
        case close
    }

    private var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
    private(set) var handshakeDone = false
    private(set) var closing = false
    let capabilities: Capabilities

    init(capabilities: Capabilities) {
        self.capabilities = capabilities
    }

    /// Bytes of an unfinished frame.
    var bufferedByteCount: Int { decoder.bufferedByteCount }

    /// Gives up on a frame that never finished: one error, then close.
    mutating func timedOut(after seconds: Double) -> [Action] {
        guard !closing else { return [] }
        closing = true
        let e = PickerError(.malformedFrame, "incomplete frame: \(decoder.bufferedByteCount) byte(s) received, no more for \(Int(seconds)) s; closing")
        return [.send(Reply.error(e).frame(id: 0)), .close]
    }

    /// Gives up on the connection for `error` (e.g. no hello in time): one error, then close.
    mutating func gaveUp(_ error: PickerError) -> [Action] {
        guard !closing else { return [] }
        closing = true
        return [.send(Reply.error(error).frame(id: 0)), .close]
    }

    mutating func received<C: Collection>(_ bytes: C) -> [Action] where C.Element == UInt8 {
        guard !closing else { return [] }
        decoder.append(bytes)
        var actions: [Action] = []
        while !closing {
            let frame: Frame?
            do {
                frame = try decoder.next()
            } catch {
                // Framing is lost: answer once (id 0, no request could be read) and close.
                actions.append(.send(Reply.error(error.pickerError).frame(id: 0)))
                actions.append(.close)
                closing = true
                break
            }
            guard let frame else { break }
            actions.append(contentsOf: handle(frame))
        }
        return actions
    }

    private mutating func handle(_ frame: Frame) -> [Action] {
        let request: Request
        do {
            request = try Request(frame: frame)
        } catch {
            if !handshakeDone {
                closing = true
                return [.send(Reply.error(error).frame(id: frame.requestID)), .close]
            }
            // A well-framed but unreadable request: answer it, keep the connection.
            return [.send(Reply.error(error).frame(id: frame.requestID))]
        }
        if case .hello(let hello) = request {
            guard hello.version == ProtocolLimits.version else {
                closing = true
                let e = PickerError(.unsupportedVersion,
                                    "protocol version \(hello.version) is not supported; this server speaks version \(ProtocolLimits.version)")
                return [.send(Reply.error(e).frame(id: frame.requestID)), .close]
            }
            handshakeDone = true
            return [.send(Reply.hello(capabilities.answering(hello)).frame(id: frame.requestID))]
        }
        guard handshakeDone else {
            closing = true
            let e = PickerError(.handshakeRequired, "the first message must be hello (type 0x01)")
            return [.send(Reply.error(e).frame(id: frame.requestID)), .close]
        }
        return [.dispatch(id: frame.requestID, request)]
    }
}
