import PickerProtocol
import Testing

/// Bytes read straight into the decoder (`receive`) and large blobs moved out of their payload
/// (`ByteReader.blob`): the same frames and replies as the copying paths, whatever the chunking.
@Suite struct FrameReceiveTests {
    struct ReadFailed: Error {}

    /// A picture large enough to be moved out, with the symbols class after it in the extension area.
    static let picture = Reply.image(EncodedImage(format: .symbols, width: 640, height: 480,
                                                  data: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) },
                                                  symbols: .ascii))
    static let frames: [Frame] = [Request.ping.frame(id: 1), picture.frame(id: 2), Request.ping.frame(id: 3)]
    static let stream: [UInt8] = frames.flatMap { $0.encoded() }

    /// Feeds `stream` through `receive`, each read handing over at most the next chunk size.
    static func received(chunks: inout SeededGenerator) throws -> [Frame] {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        var sent = 0
        var out: [Frame] = []
        while sent < stream.count {
            let most = Int.random(in: 1...70_000, using: &chunks)
            decoder.receive { raw in
                let n = min(most, raw.count, stream.count - sent)
                raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: stream.withUnsafeBytes { $0 }[sent..<sent + n]))
                sent += n
                return n
            }
            while let frame = try decoder.next() { out.append(frame) }
        }
        #expect(decoder.bufferedByteCount == 0)
        return out
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func framesReadInAnyChunkingComeOutWhole(seed: UInt64) throws {
        var chunks = SeededGenerator(seed: seed)
        #expect(try Self.received(chunks: &chunks) == Self.frames)
    }

    @Test func aReadThatFailsKeepsWhatWasAlreadyReceived() throws {
        let wire = Self.frames[1].encoded()
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.receive { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: wire.withUnsafeBytes { $0 }[0..<1000]))
            return 1000
        }
        #expect(throws: ReadFailed.self) { try decoder.receive { _ throws(ReadFailed) in throw ReadFailed() } }
        #expect(decoder.bufferedByteCount == 1000)
        decoder.receive { raw in
            #expect(raw.count == wire.count - 1000, "room for exactly the rest of the frame")
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: wire.withUnsafeBytes { $0 }[1000...]))
            return raw.count
        }
        #expect(try decoder.next() == Self.frames[1])
    }

    /// Room zeroed for one read is kept for the next (a picture's buffer is zero-filled once, not
    /// per read), and bytes appended after a short read land right after what was received.
    @Test func appendAfterAShortReadContinuesTheFrame() throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        var sent = 0
        for most in [3, 5000, 70_000] {
            decoder.receive { raw in
                let n = min(most, raw.count)
                raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: Self.stream.withUnsafeBytes { $0 }[sent..<sent + n]))
                sent += n
                return n
            }
        }
        decoder.append(Self.stream[sent...])
        var out: [Frame] = []
        while let frame = try decoder.next() { out.append(frame) }
        #expect(out == Self.frames)
        #expect(decoder.bufferedByteCount == 0)
    }

    /// The room a short read left unused is offered again as it was, not zero-filled anew: zeroing
    /// the rest of a 46 MB picture on every read made receiving it quadratic (73 s in a debug pickerctl).
    @Test func roomAShortReadLeftIsNotZeroedAgain() {
        let wire = Self.frames[1].encoded()
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.receive { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: wire.withUnsafeBytes { $0 }[0..<1000]))
            return 1000
        }
        decoder.receive { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0xA5)  // filled, but only 10 bytes reported
            return 10
        }
        decoder.receive { raw in
            #expect(raw.count == wire.count - 1010)
            #expect(raw.allSatisfy { $0 == 0xA5 }, "the unused room is handed back untouched")
            return 0
        }
    }

    @Test func aMovedBlobLeavesTheFieldsAfterItAndAnySharedCopyIntact() throws {
        let frame = Self.picture.frame(id: 9)
        let held = frame.payload
        #expect(try Reply(frame: frame) == Self.picture)
        #expect(held == frame.payload, "the caller's copy of the payload is untouched")
    }

    @Test func aBlobClaimingMoreThanThePayloadIsRefused() {
        var bytes = Self.picture.frame(id: 9).payload
        bytes.removeLast(10_000)
        #expect(throws: PickerError.self) { try Reply(frame: Frame(type: Self.picture.frame(id: 9).type, requestID: 9, payload: bytes)) }
    }
}
