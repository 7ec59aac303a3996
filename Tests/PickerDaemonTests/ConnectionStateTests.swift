@testable import PickerDaemon
import PickerProtocol
import Testing

/// The per-connection state machine, driven with bytes and no sockets.
@Suite struct ConnectionStateTests {
    let caps = Capabilities(version: 1, serverVersion: "test", maxRequestFrame: 1 << 20, maxReplyFrame: 1 << 28,
                            inputFormats: [.jpeg], outputFormats: [.png])

    private func helloBytes(version: UInt16 = 1, id: UInt32 = 1) -> [UInt8] {
        Request.hello(Hello(version: version, clientName: "t")).frame(id: id).encoded()
    }

    @Test func helloIsAnsweredWithCapabilities() {
        var s = ConnectionState(capabilities: caps)
        let actions = s.received(helloBytes())
        #expect(actions == [.send(Reply.hello(caps).frame(id: 1))])
        #expect(s.handshakeDone)
    }

    @Test func requestsAfterHelloAreDispatchedInOrder() {
        var s = ConnectionState(capabilities: caps)
        _ = s.received(helloBytes())
        let bytes = Request.ping.frame(id: 2).encoded() + Request.status(session: "x").frame(id: 3).encoded()
        #expect(s.received(bytes) == [.dispatch(id: 2, .ping), .dispatch(id: 3, .status(session: "x"))])
    }

    @Test func bytesArrivingOneAtATimeMakeTheSameFrames() {
        var s = ConnectionState(capabilities: caps)
        var actions: [ConnectionState.Action] = []
        for b in helloBytes() + Request.ping.frame(id: 9).encoded() { actions += s.received([b]) }
        #expect(actions == [.send(Reply.hello(caps).frame(id: 1)), .dispatch(id: 9, .ping)])
    }

    @Test func requestBeforeHelloIsRefusedAndCloses() {
        var s = ConnectionState(capabilities: caps)
        let actions = s.received(Request.ping.frame(id: 4).encoded())
        #expect(actions.count == 2)
        #expect(actions.last == .close)
        #expect(s.closing)
        #expect(s.received(Request.ping.frame(id: 5).encoded()).isEmpty, "nothing after close")
    }

    @Test func unsupportedVersionIsRefusedAndCloses() {
        var s = ConnectionState(capabilities: caps)
        let actions = s.received(helloBytes(version: 2))
        guard case .send(let f)? = actions.first, case .error(let e) = try? Reply(frame: f) else {
            Issue.record("expected an error frame")
            return
        }
        #expect(e.code == .unsupportedVersion)
        #expect(actions.last == .close)
    }

    @Test func oversizedFrameIsRefusedFromItsPrefixWithoutWaitingForTheBody() {
        var s = ConnectionState(capabilities: caps)
        _ = s.received(helloBytes())
        let actions = s.received([0x00, 0x20, 0x00, 0x00])  // 2 MiB claimed, no body sent
        guard case .send(let f)? = actions.first, case .error(let e) = try? Reply(frame: f) else {
            Issue.record("expected an error frame")
            return
        }
        #expect(e.code == .frameTooLarge)
        #expect(f.requestID == 0)
        #expect(actions.last == .close)
    }

    @Test func malformedRequestAfterHandshakeIsAnsweredAndTheConnectionStays() {
        var s = ConnectionState(capabilities: caps)
        _ = s.received(helloBytes())
        let bad = Frame(type: MessageType.status.rawValue, requestID: 7, payload: [0, 0, 0, 9]).encoded()
        let actions = s.received(bad + Request.ping.frame(id: 8).encoded())
        #expect(actions.count == 2)
        #expect(actions.last == .dispatch(id: 8, .ping))
        #expect(!s.closing)
    }
}
