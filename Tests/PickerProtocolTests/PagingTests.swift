import PickerProtocol
import Testing

/// `setSort`, `photosPage` and `photosPageReply`: the additions to version 1 for a session's
/// photo order and listings of any size.
@Suite struct PagingTests {
    private static func reply(_ payload: [UInt8]) -> PickerError? {
        PayloadDecodingTests.decodeReply(type: .photosPageReply, payload)
    }

    @Test func pageRequestIsSessionThenOffsetThenLimit() {
        let frame = Request.photosPage(PhotosPageRequest(session: "m", offset: 2, limit: 3)).frame(id: 1)
        #expect(frame.payload == [0, 0, 0, 1, 0x6d, 0, 0, 0, 2, 0, 0, 0, 3])
    }

    @Test func pageReplyCarriesAlbumSortTotalAndOffsetBeforeTheRows() throws {
        let page = PhotoPage(album: "A", sort: .date, total: 7, offset: 5, photos: [])
        let frame = Reply.photosPage(page).frame(id: 9)
        #expect(frame.payload == [0, 0, 0, 1, 0x41, 1, 0, 0, 0, 7, 0, 0, 0, 5, 0, 0, 0, 0])
        #expect(try Reply(frame: frame) == .photosPage(page))
    }

    @Test func unknownSortByteIsMalformedInRequestsAndKeptInReplies() {
        #expect(PayloadDecodingTests.decodeRequest(type: .setSort, [0, 0, 0, 1, 0x6d, 2])?.code == .malformedFrame)
        #expect(Self.reply([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(PayloadDecodingTests.decodeRequest(type: .setSort, [0, 0, 0, 1, 0x6d, 1]) == nil)
    }

    @Test func rowCountLargerThanThePayloadIsRefusedWithoutAllocating() {
        // album "", sort 0, total 1, offset 0, then a count of 2^32 - 1 rows and nothing after it.
        let payload: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]
        #expect(Self.reply(payload)?.code == .malformedFrame)
    }

    @Test func newRequestsAreOrderedByTheirSession() {
        #expect(Request.setSort(session: "a", .date).sessionName == "a")
        #expect(Request.photosPage(PhotosPageRequest(session: "b", offset: 0, limit: 1)).sessionName == "b")
    }

    @Test func newReplyTypeIsRefusedAsARequestAndNewRequestTypesAsReplies() {
        let page = Reply.photosPage(PhotoPage(album: "", sort: .name, total: 0, offset: 0, photos: [])).frame(id: 1)
        #expect(throws: PickerError.self) { try Request(frame: page) }
        let sort = Request.setSort(session: "m", .name).frame(id: 1)
        #expect(throws: PickerError.self) { try Reply(frame: sort) }
    }
}
