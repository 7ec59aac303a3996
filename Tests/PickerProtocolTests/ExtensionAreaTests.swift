import PickerProtocol
import Testing

/// The rule for fields added after the release (PROTOCOL.md, "Extending a message"), on its first
/// use: `hello` asking for `helloReply`'s `idle_timeout`.
@Suite struct ExtensionAreaTests {
    static let capabilities = Capabilities(
        version: 1, serverVersion: "pickerd 0.1.0", maxRequestFrame: ProtocolLimits.maxRequestFrame,
        maxReplyFrame: ProtocolLimits.maxReplyFrame, inputFormats: [.jpeg, .png, .webp], outputFormats: [.png, .jpeg, .webp],
        extensions: { var e = ExtensionArea(); e.setU32(Hello.Extension.idleTimeout, 60); return e }())

    private func vector(_ marker: [DocVector], _ label: String) throws -> Frame {
        let v = try #require(marker.first { $0.label == label }, "no block '\(label)' in PROTOCOL.md")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(v.bytes)
        return try #require(try decoder.next())
    }

    @Test func theDocumentsExtendedFramesDecodeAndReencodeByteForByte() throws {
        #expect(ProtocolDocument.extended.filter { $0.label.hasPrefix("hello") }.count == 2)
        let hello = try vector(ProtocolDocument.extended, "hello id=1 asking for idle_timeout")
        let request = try Request(frame: hello)
        #expect(request == .hello(Hello(clientName: "pickerctl", extensions: ExtensionArea([.init(tag: 1)]))))
        #expect(request.frame(id: 1) == hello)
        let reply = try vector(ProtocolDocument.extended, "helloReply id=1 with idle_timeout")
        guard case .hello(let caps) = try Reply(frame: reply), case .hello(let asking) = request else {
            Issue.record("not a hello and its reply")
            return
        }
        #expect(caps.idleTimeoutSeconds == 60)
        #expect(Reply.hello(Self.capabilities.answering(asking)).frame(id: 1) == reply)
    }

    /// Old client, new server: a v1 hello asks nothing, so the reply is the v1 vector byte for byte.
    @Test func aHelloWithoutAnAreaGetsTheReleasedReplyBytes() throws {
        let v1Hello = try vector(ProtocolDocument.vectors, "hello id=1")
        let v1Reply = try vector(ProtocolDocument.vectors, "helloReply id=1")
        guard case .hello(let hello) = try Request(frame: v1Hello) else { throw PickerError(.internal, "not a hello") }
        #expect(hello.extensions.isEmpty)
        #expect(Reply.hello(Self.capabilities.answering(hello)).frame(id: 1) == v1Reply)
    }

    /// New client, server without the field: an ask for a tag the server does not know is skipped,
    /// and the reply carries only what it knows.
    @Test func anAskForAnUnknownTagIsSkippedAndNotAnswered() throws {
        let asking = Hello(clientName: "c", extensions: ExtensionArea([.init(tag: 9, bytes: [1, 2]), .init(tag: 1)]))
        guard case .hello(let decoded) = try Request(frame: Request.hello(asking).frame(id: 2)) else { return }
        #expect(decoded == asking)
        let answer = Self.capabilities.answering(Hello(clientName: "c", extensions: ExtensionArea([.init(tag: 9)])))
        #expect(answer.extensions.isEmpty)
        // A reply entry this client does not know is skipped the same way.
        var newer = Self.capabilities
        newer.extensions.set(7, [0xAA, 0xBB])
        guard case .hello(let read) = try Reply(frame: Reply.hello(newer).frame(id: 2)) else { return }
        #expect(read.idleTimeoutSeconds == 60 && read.extensions.bytes(7) == [0xAA, 0xBB])
    }

    @Test func anEntryPastThePayloadOrATagTwiceIsMalformed() {
        let base = Request.hello(Hello(clientName: "c")).frame(id: 3)
        for area: [UInt8] in [[1], [1, 0, 0, 0], [1, 0, 0, 0, 2, 0xFF], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]] {
            var frame = base
            frame.payload += area
            #expect(thrownError { () throws(PickerError) in try Request(frame: frame) }?.code == .malformedFrame, "\(area)")
        }
        var wrongSize = Self.capabilities
        wrongSize.extensions.set(Hello.Extension.idleTimeout, [0, 1])
        #expect(wrongSize.idleTimeoutSeconds == nil)
    }
}
