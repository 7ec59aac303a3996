import PickerProtocol
import Testing

/// A reply with a picture travels with the picture's own buffer spliced in; its bytes are those
/// of the same reply written into one buffer.
@Suite struct FrameBytesTests {
    static let picture = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func aSplicedPictureFrameHasTheBytesOfTheOneBufferFrame() {
        let image = EncodedImage(format: .png, width: 600, height: 400, data: Self.picture, symbols: nil)
        let reply = Reply.image(image)
        let spliced = reply.encodedFrameBytes(id: 7)
        #expect(spliced.parts.count == 2, "the head, then the picture uncopied (nothing follows it)")
        #expect(spliced.parts[1] == Self.picture)
        #expect(spliced.joined == reply.frame(id: 7).encoded())
        #expect(spliced.count == reply.frame(id: 7).encoded().count)
    }

    @Test func aSymbolsPictureKeepsItsExtensionAfterTheSplice() {
        let image = EncodedImage(format: .symbols, width: 80, height: 24, data: Self.picture, symbols: .block)
        let reply = Reply.image(image)
        #expect(reply.encodedFrameBytes(id: 1).parts.count == 3, "the head, the picture, its extension area")
        #expect(reply.encodedFrameBytes(id: 1).joined == reply.frame(id: 1).encoded())
    }

    @Test func smallPicturesAndOtherRepliesAreOneBuffer() {
        let small = Reply.image(EncodedImage(format: .png, width: 1, height: 1, data: [1, 2, 3]))
        #expect(small.encodedFrameBytes(id: 3).parts.count == 1)
        #expect(small.encodedFrameBytes(id: 3).joined == small.frame(id: 3).encoded())
        #expect(Reply.pong(serverVersion: "x").encodedFrameBytes(id: 2).parts.count == 1)
    }

    @Test func aThumbnailSheetIsSplicedToo() {
        let sheet = ThumbnailSheet(geometry: GridGeometry(width: 10, height: 10, cellSize: 10, spacing: 0, padding: 0,
                                                                 columns: 1, rows: 1, page: 0, pages: 1, cells: []),
                                   image: EncodedImage(format: .jpeg, width: 10, height: 10, data: Self.picture))
        let reply = Reply.thumbnails(sheet)
        #expect(reply.encodedFrameBytes(id: 9).parts.count >= 2)
        #expect(reply.encodedFrameBytes(id: 9).parts[1] == Self.picture)
        #expect(reply.encodedFrameBytes(id: 9).joined == reply.frame(id: 9).encoded())
    }
}
