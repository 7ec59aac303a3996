import PickerProtocol
import Testing

/// Decoders consume exactly their payload and refuse anything else with a typed error.
@Suite struct PayloadDecodingTests {
    /// Every non-empty golden payload from the document plus the round-trip samples.
    static let canonicalFrames: [Frame] = {
        let requests = RequestTests.samples.map { $0.frame(id: 1) }
        let replies = ReplyTests.samples.filter {
            if case .image(let i) = $0 { return i.data.count < 1000 }  // keep the prefix sweep fast
            return true
        }.map { $0.frame(id: 1) }
        let events = EventTests.samples.map { $0.frame(subscriptionID: 1) }
        return (requests + replies + events).filter { !$0.payload.isEmpty }
    }()

    static func decode(_ frame: Frame) -> PickerError? {
        guard let type = MessageType(rawValue: frame.type) else { return PickerError(.unknownMessageType, "") }
        if eventTypes.contains(type) {
            return thrownError { () throws(PickerError) in try Event(frame: frame) }
        }
        if requestTypes.contains(type) {
            return thrownError { () throws(PickerError) in try Request(frame: frame) }
        }
        return thrownError { () throws(PickerError) in try Reply(frame: frame) }
    }

    static func decodeRequest(type: MessageType, _ payload: [UInt8]) -> PickerError? {
        thrownError { () throws(PickerError) in try Request(frame: Frame(type: type.rawValue, requestID: 1, payload: payload)) }
    }

    static func decodeReply(type: MessageType, _ payload: [UInt8]) -> PickerError? {
        thrownError { () throws(PickerError) in try Reply(frame: Frame(type: type.rawValue, requestID: 1, payload: payload)) }
    }

    @Test func everyTruncationOfEveryPayloadIsMalformed() {
        for frame in Self.canonicalFrames {
            #expect(Self.decode(frame) == nil)
            for n in 0..<frame.payload.count {
                var cut = frame
                cut.payload = Array(frame.payload.prefix(n))
                // A preview cut just before its optional flags byte is a whole preview without cells.
                if case .preview(let p)? = try? Request(frame: cut), p.cells == nil { continue }
                // A sessionNew cut just before its extension area is a whole sessionNew without choices.
                if case .sessionNew(let n)? = try? Request(frame: cut), n.choices.isEmpty { continue }
                #expect(Self.decode(cut)?.code == .malformedFrame, "type 0x\(String(frame.type, radix: 16)) cut to \(n) bytes")
            }
        }
    }

    @Test func trailingBytesAfterEveryPayloadAreMalformed() {
        let empties = [Request.ping, .libraryInfo, .sessionList, .albums].map { $0.frame(id: 1) }
        for frame in Self.canonicalFrames + empties {
            for extra: [UInt8] in [[0], [0xFF, 0xFF], [0, 0, 0, 0]] {
                // preview's flags byte is optional: one zero byte after it is flags = 0, not junk.
                if extra == [0], case .preview(let p)? = try? Request(frame: frame), p.cells == nil { continue }
                // photosPage's flags byte is optional too, and so is photosPageReply's broken list:
                // four zero bytes after it are an empty list.
                if extra == [0], case .photosPage(let p)? = try? Request(frame: frame), !p.markBroken { continue }
                if extra == [0, 0, 0, 0], frame.type == MessageType.photosPageReply.rawValue { continue }
                var long = frame
                long.payload += extra
                #expect(Self.decode(long)?.code == .malformedFrame,
                        "type 0x\(String(frame.type, radix: 16)) with \(extra.count) extra byte(s)")
            }
        }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xFF],                      // never valid
        [0x6D, 0xC3],                // truncated two-byte sequence
        [0xC0, 0xAF],                // overlong "/"
        [0xE0, 0x80, 0xAF],          // overlong "/", three bytes
        [0xED, 0xA0, 0x80],          // UTF-16 surrogate half
        [0xF4, 0x90, 0x80, 0x80],    // beyond U+10FFFF
        [0x80],                      // lone continuation byte
        [0xE6, 0x97],                // "旅" cut short
    ]

    @Test(arguments: invalidUTF8)
    func invalidUTF8InANameIsRefused(_ raw: [UInt8]) {
        #expect(Self.decodeRequest(type: .sessionShow, stringField(raw))?.code == .malformedFrame)
        #expect(Self.decodeRequest(type: .selectAlbum, stringField("main") + [1] + stringField(raw))?.code == .malformedFrame)
        #expect(Self.decodeReply(type: .sessionClosed, stringField(raw))?.code == .malformedFrame)
        #expect(Self.decodeReply(type: .albumsReply, [0, 0, 0, 1, 0, 0, 0, 1] + stringField(raw) + [0, 0, 0, 0])?.code
                == .malformedFrame)
    }

    @Test func validUTF8IsKeptExactly() throws {
        let name = "e\u{301} é 🇯🇵 \u{0}"  // decomposed, composed, flag, NUL: bytes are not normalised
        let decoded = try Request(frame: Frame(type: MessageType.sessionShow.rawValue, requestID: 1, payload: stringField(name)))
        #expect(decoded == .sessionShow(name: name))
        guard case .sessionShow(let got) = decoded else { return }
        #expect(Array(got.utf8) == Array(name.utf8))
    }

    @Test func stringLongerThanThePayloadIsMalformed() {
        #expect(Self.decodeRequest(type: .status, [0xFF, 0xFF, 0xFF, 0xFF, 0x6D])?.code == .malformedFrame)
        #expect(Self.decodeRequest(type: .status, [0, 0, 0, 5, 0x6D, 0x61, 0x69, 0x6E])?.code == .malformedFrame)
        #expect(Self.decodeReply(type: .image, [2, 0, 0, 0, 1, 0, 0, 0, 1, 0x7F, 0xFF, 0xFF, 0xFF, 1, 2])?.code == .malformedFrame)
    }

    @Test func listCountLargerThanThePayloadIsRefusedWithoutAllocating() {
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(Self.decodeReply(type: .albumsReply, huge)?.code == .malformedFrame)
            #expect(Self.decodeReply(type: .sessionListReply, huge + [0, 0, 0, 0])?.code == .malformedFrame)
            #expect(Self.decodeReply(type: .photosReply, stringField("a") + huge)?.code == .malformedFrame)
            #expect(Self.decodeReply(type: .helloReply, [0, 1] + stringField("") + [0, 0, 0, 0, 0, 0, 0, 0] + huge)?.code
                    == .malformedFrame)
            #expect(Self.decodeReply(type: .selectionReply, [0, 10] + huge)?.code == .malformedFrame)
            #expect(Self.decodeReply(type: .thumbnailsReply, [UInt8](repeating: 0, count: 36) + huge + [0])?.code
                    == .malformedFrame)
        }
        #expect(elapsed < .seconds(1))
    }

    @Test func listCountOneMoreThanPresentIsMalformed() {
        let album: [UInt8] = [0, 0, 0, 1] + stringField("All Photos") + [0, 0, 0, 3]
        #expect(Self.decodeReply(type: .albumsReply, [0, 0, 0, 1] + album) == nil)
        #expect(Self.decodeReply(type: .albumsReply, [0, 0, 0, 2] + album)?.code == .malformedFrame)
        #expect(Self.decodeReply(type: .albumsReply, [0, 0, 0, 0] + album)?.code == .malformedFrame, "extra element is trailing junk")
    }

    static let unknownTypes: [UInt8] = [0x00, 0x0A, 0x0F, 0x15, 0x2B, 0x34, 0x55, 0x7F, 0x84, 0xFF]

    @Test(arguments: unknownTypes)
    func unknownMessageTypeIsRefusedByBothDecoders(_ type: UInt8) {
        let frame = Frame(type: type, requestID: 1, payload: [])
        #expect(thrownError { () throws(PickerError) in try Request(frame: frame) }?.code == .unknownMessageType)
        #expect(thrownError { () throws(PickerError) in try Reply(frame: frame) }?.code == .unknownMessageType)
    }

    @Test func replyTypeSentAsARequestIsRefused() {
        for type in replyTypes {
            let frame = Frame(type: type.rawValue, requestID: 1, payload: [])
            #expect(thrownError { () throws(PickerError) in try Request(frame: frame) }?.code == .unknownMessageType, "\(type)")
        }
    }

    @Test func requestTypeReadAsAReplyIsRefused() {
        for type in requestTypes {
            let frame = Frame(type: type.rawValue, requestID: 1, payload: [])
            #expect(thrownError { () throws(PickerError) in try Reply(frame: frame) }?.code == .unknownMessageType, "\(type)")
        }
    }

    @Test(arguments: [0, 3, 0x80, 0xFF] as [UInt8])
    func unknownSelectorKindIsMalformed(_ kind: UInt8) {
        #expect(Self.decodeRequest(type: .selectAlbum, stringField("main") + [kind, 0, 0, 0, 1])?.code == .malformedFrame)
        #expect(Self.decodeRequest(type: .selectPhoto, stringField("main") + [kind] + stringField("x"))?.code == .malformedFrame)
    }

    @Test func selectorKindsDecode() throws {
        #expect(Self.decodeRequest(type: .selectPhoto, stringField("main") + [2, 0, 0, 0, 7]) == nil)
        #expect(Self.decodeRequest(type: .selectPhoto, stringField("main") + [1] + stringField("IMG.jpg")) == nil)
    }

    @Test(arguments: [2, 0x80, 0xFF] as [UInt8])
    func boolByteOtherThanZeroOrOneIsMalformed(_ byte: UInt8) {
        var r = ByteReader([byte])
        #expect(thrownError { () throws(PickerError) in try r.bool() }?.code == .malformedFrame)
    }

    @Test func boolBytesZeroAndOneDecode() throws {
        var r = ByteReader([0, 1])
        #expect(try r.bool() == false)
        #expect(try r.bool() == true)
        try r.expectEnd()
    }

    /// In a request the server refuses a value it does not know; in a reply a value a newer server
    /// added is kept (the open-values rule of PROTOCOL.md), so those cases decode.
    @Test func unknownEnumBytesAreRefusedInRequestsAndKeptInReplies() {
        #expect(Self.decodeRequest(type: .photos, stringField("m") + [2])?.code == .malformedFrame, "sort")
        #expect(Self.decodeRequest(type: .stepPhoto, stringField("m") + [2])?.code == .malformedFrame, "direction")
        #expect(Self.decodeRequest(type: .getImage, stringField("m") + [0, 0, 0])?.code == .invalidArgument, "format 0")
        #expect(Self.decodeRequest(type: .getImage, stringField("m") + [4, 0, 0])?.code == .invalidArgument, "format 4")
        let library = stringField("/") + [0, 0, 0, 1, 0, 0, 0, 1, 2] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0]
        #expect(Self.decodeReply(type: .libraryInfoReply, library) == nil, "scan state")
        #expect(Self.decodeReply(type: .image, [9, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]) == nil, "image format")
        #expect(Self.decodeRequest(type: .preview, stringField("m") + [0, 0, 0, 16, 0, 0, 0, 16, 0, 0])?.code
                == .invalidArgument, "preview format 0")
        #expect(Self.decodeRequest(type: .preview, stringField("m") + [0, 0, 0, 16, 0, 0, 0, 16, 4, 0])?.code
                == .invalidArgument, "preview format 4")
        let grid = [UInt8](repeating: 0, count: 36) + [0, 0, 0, 0]
        #expect(Self.decodeReply(type: .thumbnailsReply, grid + [0]) == nil, "has_image 0")
        #expect(Self.decodeReply(type: .thumbnailsReply, grid + [2])?.code == .malformedFrame, "has_image 2")
        #expect(Self.decodeReply(type: .thumbnailsReply, grid + [0xFF])?.code == .malformedFrame, "has_image 255")
        #expect(Self.decodeReply(type: .thumbnailsReply, grid + [1, 9, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]) == nil,
                "thumbnail image format")
    }

    @Test func hasImageZeroWithImageFieldsAfterItIsTrailingJunk() {
        let grid = [UInt8](repeating: 0, count: 36) + [0, 0, 0, 0]
        #expect(Self.decodeReply(type: .thumbnailsReply, grid + [0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0])?.code
                == .malformedFrame)
        #expect(Self.decodeReply(type: .thumbnailsReply, grid + [1, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]) == nil)
    }

    @Test func byteReaderReadsBigEndianAndStopsAtTheEnd() throws {
        var r = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0x00])
        #expect(try r.u8() == 0x01)
        #expect(try r.u16() == 0x0203)
        #expect(try r.u32() == 0x0405_0607)
        #expect(try r.i64() == -2)
        #expect(r.remaining == 1)
        #expect(thrownError { () throws(PickerError) in try r.u16() }?.code == .malformedFrame)
        #expect(r.remaining == 1, "a failed read consumes nothing")
        #expect(thrownError { () throws(PickerError) in try r.expectEnd() }?.code == .malformedFrame)
    }

    @Test func byteWriterWritesBigEndian() {
        var w = ByteWriter()
        w.u8(1)
        w.u16(0x0203)
        w.u32(0x0405_0607)
        w.u64(0x0809_0A0B_0C0D_0E0F)
        w.i64(-1)
        w.bool(true)
        w.string("é")
        w.blob([9])
        w.count(-3)
        #expect(w.bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
                + [UInt8](repeating: 0xFF, count: 8) + [1, 0, 0, 0, 2, 0xC3, 0xA9, 0, 0, 0, 1, 9, 0, 0, 0, 0])
    }
}
