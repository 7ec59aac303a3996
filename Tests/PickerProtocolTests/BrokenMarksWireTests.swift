import PickerProtocol
import Testing

/// Broken marks on the wire: `photosPage`'s optional trailing flags, `photosPageReply`'s optional
/// trailing broken list and the grid cell's flags bit 2 — all absent from frames that do not ask.
@Suite struct BrokenMarksWireTests {
    private static let row = PhotoInfo(index: 4, name: "a.jpg", path: "A/a.jpg", width: 2, height: 3, bytes: 10,
                                       format: .jpeg, date: 0, dateSource: .modified)

    @Test func pageRequestSendsTheFlagsByteOnlyWhenMarksAreAskedFor() throws {
        let plain = Request.photosPage(PhotosPageRequest(session: "m", offset: 2, limit: 3)).frame(id: 1)
        #expect(plain.payload == [0, 0, 0, 1, 0x6d, 0, 0, 0, 2, 0, 0, 0, 3])
        let request = PhotosPageRequest(session: "m", offset: 2, limit: 3, markBroken: true)
        let marked = Request.photosPage(request).frame(id: 1)
        #expect(marked.payload == plain.payload + [1])
        #expect(try Request(frame: marked) == .photosPage(request))
    }

    @Test func unknownFlagBitsInAPageRequestAreIgnored() throws {
        let frame = Frame(type: MessageType.photosPage.rawValue, requestID: 1,
                          payload: [0, 0, 0, 1, 0x6d, 0, 0, 0, 2, 0, 0, 0, 3, 0xfe])
        #expect(try Request(frame: frame) == .photosPage(PhotosPageRequest(session: "m", offset: 2, limit: 3)))
    }

    @Test func markedPageEndsWithTheBrokenRowsAndTheirReasons() throws {
        var broken = Self.row
        broken.broken = "corrupt JPEG data: Premature end of JPEG file"
        var fine = Self.row
        fine.index = 5
        let page = PhotoPage(album: "A", sort: .name, total: 9, offset: 3, photos: [broken, fine], marksBroken: true)
        let frame = Reply.photosPage(page).frame(id: 9)
        let unmarked = Reply.photosPage(PhotoPage(album: "A", sort: .name, total: 9, offset: 3,
                                                  photos: [Self.row, fine])).frame(id: 9)
        let reason = Array("corrupt JPEG data: Premature end of JPEG file".utf8)
        #expect(frame.payload == unmarked.payload + [0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, UInt8(reason.count)] + reason)
        #expect(try Reply(frame: frame) == .photosPage(page))
    }

    @Test func anUnmarkedPageIsByteForByteTheOldReply() throws {
        var broken = Self.row
        broken.broken = "ignored"
        let page = PhotoPage(album: "A", sort: .name, total: 1, offset: 0, photos: [broken])
        let plain = PhotoPage(album: "A", sort: .name, total: 1, offset: 0, photos: [Self.row])
        #expect(Reply.photosPage(page).frame(id: 1) == Reply.photosPage(plain).frame(id: 1))
    }

    @Test func brokenRowNotOnThePageIsMalformed() {
        let page = PhotoPage(album: "A", sort: .name, total: 1, offset: 0, photos: [Self.row], marksBroken: true)
        let payload = Reply.photosPage(page).frame(id: 1).payload + []
        // A marked page with an empty list, then one entry naming row 99 in place of the empty count.
        let bad = Array(payload.dropLast(4)) + [0, 0, 0, 1, 0, 0, 0, 99, 0, 0, 0, 0]
        #expect(PayloadDecodingTests.decodeReply(type: .photosPageReply, bad)?.code == .malformedFrame)
    }

    @Test func gridCellFlagsBitTwoIsBroken() throws {
        let cell = GridCell(index: 1, name: "a", x: 0, y: 0, size: 16, selected: false, current: false, broken: true)
        let sheet = ThumbnailSheet(geometry: GridGeometry(width: 48, height: 48, cellSize: 16, spacing: 10, padding: 16,
                                                          columns: 1, rows: 1, page: 1, pages: 1, cells: [cell]),
                                   image: nil)
        let frame = Reply.thumbnails(sheet).frame(id: 1)
        #expect(frame.payload[frame.payload.count - 2] == 4)  // the cell's flags, then has_image = 0
        #expect(try Reply(frame: frame) == .thumbnails(sheet))
    }
}
