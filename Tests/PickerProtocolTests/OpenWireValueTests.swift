import PickerProtocol
import Testing

/// Values a newer peer may add (error codes, formats, orders, scan states, date sources, session
/// changes, event types) survive decode and re-encode byte for byte. Before these types were open,
/// each of these frames failed to decode (`malformed_frame`) or came back with another value.
@Suite struct OpenWireValueTests {
    static let photo = PhotoInfo(index: 1, name: "a.new", path: "a.new", width: 2, height: 3, bytes: 4,
                                 format: PhotoFormat(rawValue: 77), date: 5, dateSource: .init(rawValue: 9))
    static let library = LibraryInfo(root: "/p", albumCount: 1, photoCount: 1, scanState: .init(rawValue: 5),
                                     scannedAt: 0, skippedCount: 0)
    static let state = SessionState(name: "s", title: "t", width: 100, height: nil, maxSelection: 10, selectionCount: 0,
                                    album: nil, albumIndex: nil, photo: nil, photoIndex: nil, photoCount: 0, message: "")

    static let replies: [Reply] = [
        .error(PickerError(ErrorCode(rawValue: 4242), "a newer code")),
        .hello(Capabilities(version: 1, serverVersion: "pickerd 9", maxRequestFrame: 1, maxReplyFrame: 2,
                            inputFormats: [.jpeg, PhotoFormat(rawValue: 77)], outputFormats: [.png, ImageFormat(rawValue: 42)])),
        .image(EncodedImage(format: ImageFormat(rawValue: 42), width: 1, height: 1, data: [1])),
        .photosPage(PhotoPage(album: "All Photos", sort: PhotoSort(rawValue: 9), total: 1, offset: 0, photos: [photo])),
        .photos(PhotoList(album: "All Photos", photos: [photo])),
        .libraryInfo(library),
        .scanProgress(ScanProgress(state: .init(rawValue: 5), filesDone: 1, filesExpected: 2, elapsedMilliseconds: 3)),
    ]

    @Test(arguments: replies)
    func aReplyWithNewerValuesRoundTrips(_ reply: Reply) throws {
        let frame = reply.frame(id: 3)
        let decoded = try Reply(frame: frame)
        #expect(decoded == reply)
        #expect(decoded.frame(id: 3) == frame)
    }

    static let events: [Event] = [
        .session(SessionChange(rawValue: 42), state),
        .library(library),
        .unknown(type: 0x9a, payload: [1, 2, 3]),
    ]

    @Test(arguments: events)
    func anEventWithNewerValuesRoundTrips(_ event: Event) throws {
        let frame = event.frame(subscriptionID: 30)
        let decoded = try Event(frame: frame)
        #expect(decoded == event)
        #expect(decoded.frame(subscriptionID: 30) == frame)
    }

    /// The server still refuses what it cannot do: an order or output format it does not know in a request.
    @Test func aRequestWithAValueTheServerDoesNotKnowIsRefused() {
        let sort = Request.setSort(session: "s", PhotoSort(rawValue: 9)).frame(id: 1)
        #expect(thrownError { () throws(PickerError) in try Request(frame: sort) }?.code == .malformedFrame)
        let image = Request.getImage(ImageRequest(session: "s", format: ImageFormat(rawValue: 42))).frame(id: 1)
        #expect(thrownError { () throws(PickerError) in try Request(frame: image) }?.code == .invalidArgument)
    }

    @Test func unknownValuesAreNamedByTheirNumber() {
        #expect(ImageFormat(rawValue: 42).displayName == "format-42")
        #expect(ImageFormat(rawValue: 42).optionName == "format-42")
        #expect(PhotoFormat(rawValue: 77).displayName == "format-77")
        #expect(SessionChange(rawValue: 42).name == "change-42")
        #expect(ErrorCode(rawValue: 4242).description == "error-4242")
        #expect(ImageFormat(optionName: "JPG") == .jpeg && ImageFormat(optionName: "format-42") == nil)
    }
}
