import PickerProtocol
import Testing

/// Framing: partial input waits, complete frames come out in order, bad lengths are refused
/// from the 4-byte prefix alone.
@Suite struct FrameDecoderTests {
    static let frames: [Frame] = [
        Request.hello(Hello(clientName: "test")).frame(id: 1),
        Request.ping.frame(id: 2),
        Request.selectAlbum(session: "main", .name("旅行/京都")).frame(id: 3),
        Reply.image(EncodedImage(format: .png, width: 2, height: 2, data: Array(repeating: 0xAB, count: 300))).frame(id: 4),
        Frame(type: 0x80, requestID: 0, payload: [1, 2, 3]),
        Request.status(session: "").frame(id: .max),
    ]
    static let stream: [UInt8] = frames.flatMap { $0.encoded() }

    /// Pulls every complete frame; fails the test on a framing error.
    static func drain(_ decoder: inout FrameDecoder) -> [Frame] {
        var out: [Frame] = []
        do {
            while let f = try decoder.next() { out.append(f) }
        } catch {
            Issue.record("unexpected framing error \(error)")
        }
        return out
    }

    @Test func framesFedOneByteAtATimeComeOutWhole() {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        var out: [Frame] = []
        for b in Self.stream {
            decoder.append([b])
            out += Self.drain(&decoder)
        }
        #expect(out == Self.frames)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func manyFramesInOneAppendAllComeOutInOrder() {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(Self.stream + Self.stream)
        #expect(Self.drain(&decoder) == Self.frames + Self.frames)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func aFrameSplitAtEveryPointIsReassembled() {
        let wire = Self.frames[2].encoded()
        for cut in 0...wire.count {
            var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
            decoder.append(wire[..<cut])
            let early = Self.drain(&decoder)
            #expect(early == (cut == wire.count ? [Self.frames[2]] : []), "cut at \(cut)")
            decoder.append(wire[cut...])
            let rest = Self.drain(&decoder)
            #expect(early + rest == [Self.frames[2]], "cut at \(cut)")
        }
    }

    @Test func randomChunkingOfALongStreamLosesNothing() {
        var rng = SeededGenerator(seed: 42)
        var all: [Frame] = []
        for i in 0..<400 {
            let payload = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            all.append(Frame(type: UInt8.random(in: 0...255, using: &rng), requestID: UInt32(i), payload: payload))
        }
        let wire = all.flatMap { $0.encoded() }
        var decoder = FrameDecoder(maxFrameLength: 1024)
        var out: [Frame] = []
        var i = 0
        while i < wire.count {
            let n = min(wire.count - i, Int.random(in: 1...300, using: &rng))
            decoder.append(wire[i..<i + n])
            i += n
            out += Self.drain(&decoder)
        }
        #expect(out == all)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func lengthOverTheCapIsRefusedFromThePrefixAlone() {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append([0x00, 0x10, 0x00, 0x01])  // 1 MiB + 1; no body follows
        #expect(decoder.pendingLength == 1_048_577)
        #expect(throws: FrameDecoder.Failure.tooLarge(length: 1_048_577, max: 1_048_576)) { try decoder.next() }
        #expect(decoder.bufferedByteCount == 4, "nothing beyond the prefix was needed")
    }

    @Test func maximumLengthPrefixIsRefusedWithoutAllocating() {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: FrameDecoder.Failure.tooLarge(length: .max, max: ProtocolLimits.maxReplyFrame)) { try decoder.next() }
    }

    @Test func lengthExactlyAtTheCapIsAcceptedAndWaitsForItsBody() throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append([0x00, 0x10, 0x00, 0x00, MessageType.ping.rawValue, 0, 0, 0, 1])
        #expect(try decoder.next() == nil)
        decoder.append([UInt8](repeating: 0, count: Int(ProtocolLimits.maxRequestFrame) - 5))
        let frame = try #require(try decoder.next())
        #expect(frame.payload.count == Int(ProtocolLimits.maxRequestFrame) - 5)
    }

    @Test(arguments: 0..<5)
    func lengthBelowTheHeaderIsRefused(_ length: Int) {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append([0, 0, 0, UInt8(length)])
        #expect(throws: FrameDecoder.Failure.tooShort(length: UInt32(length))) { try decoder.next() }
    }

    @Test func refusalsMapToTheDocumentedErrorCodes() {
        #expect(FrameDecoder.Failure.tooLarge(length: 9, max: 8).pickerError.code == .frameTooLarge)
        #expect(FrameDecoder.Failure.tooShort(length: 1).pickerError.code == .malformedFrame)
    }

    @Test func aTruncatedFrameWaitsForTheRest() throws {
        let wire = Request.sessionShow(name: "main").frame(id: 6).encoded()
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(wire.dropLast())
        #expect(try decoder.next() == nil)
        #expect(try decoder.next() == nil, "asking again changes nothing")
        #expect(decoder.bufferedByteCount == wire.count - 1)
        decoder.append(wire.suffix(1))
        #expect(try decoder.next() == Request.sessionShow(name: "main").frame(id: 6))
    }

    @Test func nothingAndAPartialPrefixWait() throws {
        var decoder = FrameDecoder(maxFrameLength: 100)
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingLength == nil)
        decoder.append([0, 0, 0])
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingLength == nil)
    }

    @Test func incompleteJunkAfterACompleteFrameIsWaitedOn() throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(Request.ping.frame(id: 7).encoded() + [0x00, 0x00, 0x00])
        #expect(try decoder.next() == Request.ping.frame(id: 7))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 3)
    }

    @Test func oversizedJunkAfterACompleteFrameIsRefusedAfterTheFrame() throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(Request.ping.frame(id: 7).encoded() + [0x47, 0x45, 0x54, 0x20, 0x2F])  // "GET /"
        #expect(try decoder.next() == Request.ping.frame(id: 7), "the good frame is delivered first")
        #expect(throws: FrameDecoder.Failure.tooLarge(length: 0x4745_5420, max: ProtocolLimits.maxRequestFrame)) {
            try decoder.next()
        }
        #expect(throws: FrameDecoder.Failure.self, "the refusal is stable") { try decoder.next() }
    }

    @Test func shortJunkAfterACompleteFrameIsRefusedAfterTheFrame() throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(Request.ping.frame(id: 7).encoded() + [0, 0, 0, 2, 0xAA])
        #expect(try decoder.next() == Request.ping.frame(id: 7))
        #expect(throws: FrameDecoder.Failure.tooShort(length: 2)) { try decoder.next() }
    }

    @Test func wellFramedGarbageComesOutAsAFrameForTheDecoderToRefuse() throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(Request.ping.frame(id: 7).encoded() + [0, 0, 0, 6, 0x7F, 0, 0, 0, 8, 0xEE])
        #expect(try decoder.next() == Request.ping.frame(id: 7))
        let junk = try #require(try decoder.next())
        #expect(junk == Frame(type: 0x7F, requestID: 8, payload: [0xEE]))
        #expect(thrownError { () throws(PickerError) in try Request(frame: junk) }?.code == .unknownMessageType)
    }
}
