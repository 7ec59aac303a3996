import PickerProtocol
import Testing

/// `photoInfo`'s extension `raw_companion` (tag 1; PROTOCOL.md, "Image formats" and "Extending a
/// message"): asked by an empty entry, answered by the RAW's relative path, "" (length 0) for none.
@Suite struct RawCompanionTests {
    private func frame(_ label: String) throws -> Frame {
        let v = try #require(ProtocolDocument.extended.first { $0.label == label }, "no block '\(label)' in PROTOCOL.md")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(v.bytes)
        return try #require(try decoder.next())
    }

    private static let ask = ExtensionArea([.init(tag: PhotoDetails.Extension.rawCompanion)])

    @Test func theDocumentsRawCompanionFramesDecodeAndReencodeByteForByte() throws {
        let request = try frame("photoInfo id=70 asking for raw_companion")
        #expect(try Request(frame: request) == .photoInfo(session: "main", photo: nil, extensions: Self.ask))
        #expect(Request.photoInfo(session: "main", photo: nil, extensions: Self.ask).frame(id: 70) == request)

        let reply = try frame("photoInfoReply id=70 with raw_companion")
        var paired = GoldenVectorValues.details
        paired.rawCompanion = "2024/Kyoto/IMG_2.CR2"
        #expect(try Reply(frame: reply) == .photoInfo(paired))
        #expect(Reply.photoInfo(paired).frame(id: 70) == reply)
    }

    /// Old client, new server: no ask is the released request, and details without the field are
    /// the released reply byte for byte.
    @Test func withoutTheAskTheFramesAreTheReleasedOnes() throws {
        let v1 = try #require(ProtocolDocument.vectors.first { $0.label == "photoInfo id=70" })
        #expect(Request.photoInfo(session: "main", photo: nil).frame(id: 70).encoded() == v1.bytes)
        let v1Reply = try #require(ProtocolDocument.vectors.first { $0.label == "photoInfoReply id=70" })
        #expect(Reply.photoInfo(GoldenVectorValues.details).frame(id: 70).encoded() == v1Reply.bytes)
        guard case .photoInfo(let read) = try Reply(frame: Reply.photoInfo(GoldenVectorValues.details).frame(id: 70)) else {
            Issue.record("not a photoInfoReply")
            return
        }
        #expect(read.rawCompanion == nil)
    }

    @Test func anEmptyEntryMeansNoCompanionAndInvalidUTF8IsMalformed() throws {
        var none = GoldenVectorValues.details
        none.rawCompanion = ""
        let frame = Reply.photoInfo(none).frame(id: 5)
        #expect(Array(frame.payload.suffix(5)) == [1, 0, 0, 0, 0])
        guard case .photoInfo(let read) = try Reply(frame: frame) else {
            Issue.record("not a photoInfoReply")
            return
        }
        #expect(read.rawCompanion == "")
        var bad = Reply.photoInfo(GoldenVectorValues.details).frame(id: 5)
        bad.payload += [1, 0, 0, 0, 1, 0xFF]
        #expect(thrownError { () throws(PickerError) in try Reply(frame: bad) }?.code == .malformedFrame)
        // An entry of a tag this version does not know is skipped.
        var newer = Reply.photoInfo(GoldenVectorValues.details).frame(id: 5)
        newer.payload += [9, 0, 0, 0, 2, 0xAA, 0xBB]
        #expect(try Reply(frame: newer) == .photoInfo(GoldenVectorValues.details))
    }
}
