import PickerProtocol
import Testing

/// Every reply case survives encode → frame bytes → decode unchanged.
@Suite struct ReplyTests {
    static let fullSession = SessionState(
        name: "main", title: "Photo Library", width: 800, height: 600, maxSelection: 10, selectionCount: 2,
        album: "2024/Kyoto", albumIndex: 2, photo: "IMG_2.jpg", photoIndex: 1, photoCount: 12,
        message: "4032x3024 px, 3.1 MB, JPEG")
    static let emptySession = SessionState(
        name: "", title: "", width: 16, height: nil, maxSelection: 1, selectionCount: 0,
        album: nil, albumIndex: nil, photo: nil, photoIndex: nil, photoCount: 0, message: "")
    static let maxSession = SessionState(
        name: "最大", title: "🌸 Hanami 🌸", width: Int(UInt32.max), height: Int(UInt32.max),
        maxSelection: Int(UInt16.max), selectionCount: Int(UInt16.max), album: "a/b/c", albumIndex: Int(UInt32.max),
        photo: "Ω.webp", photoIndex: Int(UInt32.max), photoCount: Int(UInt32.max), message: "x")

    static let samples: [Reply] = [
        .choices(GoldenVectorValues.choices),
        .choices([]),
        .choices([SessionChoice(id: "写真", label: "", options: [.init(id: "a", label: "")], value: "")]),
        .photoInfo(GoldenVectorValues.details),
        .photoInfo(PhotoDetails(path: "", name: "", format: PhotoFormat(rawValue: 42), width: 0, height: 0, bytes: 0,
                                date: -1, dateSource: PhotoInfo.DateSource(rawValue: 7))),
        .hello(Capabilities(version: 1, serverVersion: "0.1.0", maxRequestFrame: 1 << 20, maxReplyFrame: 256 << 20,
                            inputFormats: [.jpeg, .png, .webp], outputFormats: [.png, .jpeg, .webp])),
        .hello(Capabilities(version: .max, serverVersion: "", maxRequestFrame: .max, maxReplyFrame: 0,
                            inputFormats: [], outputFormats: [.webp])),
        .error(PickerError(.noSuchSession, "no session named 'main'")),
        .scanProgress(ScanProgress(state: .scanning, filesDone: 1, filesExpected: 0, elapsedMilliseconds: 5)),
        .scanProgress(ScanProgress(state: .ready, filesDone: Int(UInt32.max), filesExpected: Int(UInt32.max),
                                   elapsedMilliseconds: Int(UInt32.max))),
        .error(PickerError(.internal, "")),
        .error(PickerError(.outOfRange, "pane width 9000 is out of range 16…8192 px")),
        .pong(serverVersion: "0.1.0"),
        .pong(serverVersion: ""),
        .libraryInfo(LibraryInfo(root: "/home/ann/Pictures", albumCount: 3, photoCount: 42, scanState: .ready,
                                 scannedAt: 1_764_400_000, skippedCount: 1)),
        .libraryInfo(LibraryInfo(root: "/home/アン/写真", albumCount: 0, photoCount: 0, scanState: .scanning,
                                 scannedAt: 0, skippedCount: 0)),
        .libraryInfo(LibraryInfo(root: "", albumCount: Int(UInt32.max), photoCount: Int(UInt32.max), scanState: .ready,
                                 scannedAt: .min, skippedCount: Int(UInt32.max))),
        .libraryInfo(LibraryInfo(root: "/", albumCount: 1, photoCount: 1, scanState: .ready,
                                 scannedAt: .max, skippedCount: 0)),
        .session(fullSession),
        .session(emptySession),
        .session(maxSession),
        .sessionList([]),
        .sessionList([fullSession, emptySession, maxSession]),
        .sessionClosed(name: "main"),
        .sessionClosed(name: ""),
        .albums([]),
        .albums([AlbumInfo(index: 1, name: "All Photos", photoCount: 42), AlbumInfo(index: 2, name: "2024/京都", photoCount: 0),
                 AlbumInfo(index: Int(UInt32.max), name: "", photoCount: Int(UInt32.max))]),
        .photos(PhotoList(album: "", photos: [])),
        .photos(PhotoList(album: "2024/Kyoto", photos: [
            PhotoInfo(index: 1, name: "IMG_2.jpg", path: "2024/Kyoto/IMG_2.jpg", width: 4032, height: 3024, bytes: 3_145_728, format: .jpeg,
                      date: 1_714_000_000, dateSource: .exif),
            PhotoInfo(index: 2, name: "スクリーンショット.png", path: "スクリーンショット.png", width: 1, height: 1, bytes: 0, format: .png,
                      date: -1, dateSource: .modified),
            PhotoInfo(index: Int(UInt32.max), name: "", path: "", width: Int(UInt32.max), height: Int(UInt32.max), bytes: .max,
                      format: .webp, date: .min, dateSource: .exif),
        ])),
        .photosPage(PhotoPage(album: "", sort: .name, total: 0, offset: 0, photos: [])),
        .photosPage(PhotoPage(album: "All Photos", sort: .date, total: Int(UInt32.max), offset: 999, photos: [
            PhotoInfo(index: 1000, name: "IMG_2.jpg", path: "2024/Kyoto/IMG_2.jpg", width: 4032, height: 3024, bytes: 3_145_728,
                      format: .jpeg, date: 1_714_000_000, dateSource: .exif)])),
        .image(EncodedImage(format: .png, width: 640, height: 480, data: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
        .image(EncodedImage(format: .webp, width: 0, height: 0, data: [])),
        .image(EncodedImage(format: .jpeg, width: 1, height: Int(UInt32.max), data: (0..<70_000).map { UInt8(truncatingIfNeeded: $0) })),
        .selection(SelectionList(maxSelection: 10, photos: [])),
        .selection(SelectionList(maxSelection: 10, photos: [pickedKyoto, pickedRoot])),
        .selection(SelectionList(maxSelection: Int(UInt16.max), photos: [
            SelectedPhoto(album: "", name: "", width: 0, height: 0, path: "", absolutePath: ""),
            SelectedPhoto(album: "🌸", name: "Ω.webp", width: Int(UInt32.max), height: Int(UInt32.max),
                          path: "🌸/Ω.webp", absolutePath: "/home/アン/写真/🌸/Ω.webp"),
        ])),
        .thumbnails(ThumbnailSheet(geometry: twoCells, image: nil)),
        .thumbnails(ThumbnailSheet(geometry: twoCells, image: EncodedImage(format: .png, width: 800, height: 332,
                                                                           data: [0x89, 0x50, 0x4e, 0x47]))),
        .thumbnails(ThumbnailSheet(geometry: emptyGrid, image: EncodedImage(format: .png, width: 640, height: 32, data: []))),
        .thumbnails(ThumbnailSheet(geometry: emptyGrid, image: nil)),
        .thumbnails(ThumbnailSheet(geometry: maxGrid, image: EncodedImage(format: .webp, width: Int(UInt32.max),
                                                                          height: Int(UInt32.max), data: [0]))),
        .subscribed(Subscription(session: "main", library: true)),
        .subscribed(Subscription(session: "最大", library: false)),
        .subscribed(Subscription(session: nil, library: true)),
        .subscribed(Subscription(session: nil, library: false)),
        .cancelReply(requestID: 19, found: true),
        .cancelReply(requestID: 0, found: false),
        .cancelReply(requestID: .max, found: true),
    ]

    static let pickedKyoto = SelectedPhoto(album: "2024/Kyoto", name: "IMG_2.jpg", width: 4032, height: 3024,
                                           path: "2024/Kyoto/IMG_2.jpg", absolutePath: "/home/ann/Pictures/2024/Kyoto/IMG_2.jpg")
    static let pickedRoot = SelectedPhoto(album: "Pictures", name: "スクリーンショット.png", width: 1, height: 1,
                                          path: "スクリーンショット.png", absolutePath: "/home/ann/Pictures/スクリーンショット.png")
    static let twoCells = GridGeometry(
        width: 800, height: 332, cellSize: 300, spacing: 10, padding: 16, columns: 2, rows: 1, page: 2, pages: 6, cells: [
            GridCell(index: 3, name: "IMG_4.jpg", x: 16, y: 16, size: 300, selected: true, current: false),
            GridCell(index: 4, name: "IMG_5.jpg", x: 326, y: 16, size: 300, selected: false, current: true),
        ])
    static let emptyGrid = GridGeometry(width: 640, height: 32, cellSize: 100, spacing: 10, padding: 16, columns: 5,
                                        rows: 0, page: 1, pages: 1, cells: [])
    static let maxGrid = GridGeometry(
        width: Int(UInt32.max), height: Int(UInt32.max), cellSize: Int(UInt32.max), spacing: 0, padding: Int(UInt32.max),
        columns: 1, rows: Int(UInt32.max), page: Int(UInt32.max), pages: Int(UInt32.max), cells: [
            GridCell(index: Int(UInt32.max), name: "", x: Int(UInt32.max), y: 0, size: Int(UInt32.max), selected: true, current: true),
            GridCell(index: 0, name: "写真.webp", x: 0, y: Int(UInt32.max), size: 0, selected: false, current: false),
        ])

    @Test(arguments: samples)
    func replyRoundTripsThroughItsFrame(_ reply: Reply) throws {
        for id: UInt32 in [0, 1, .max] {
            let wire = reply.frame(id: id).encoded()
            var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
            decoder.append(wire)
            let frame = try #require(try decoder.next())
            #expect(frame.requestID == id)
            #expect(!frame.isEvent)
            #expect(try Reply(frame: frame) == reply)
        }
    }

    @Test func everyReplyTypeHasARoundTripSample() {
        #expect(Set(Self.samples.map(\.messageType)) == replyTypes)
    }

    @Test(arguments: ErrorCode.allCases)
    func everyErrorCodeRoundTrips(_ code: ErrorCode) throws {
        let reply = Reply.error(PickerError(code, "\(code.name) happened"))
        #expect(try Reply(frame: reply.frame(id: 9)) == reply)
    }

    @Test func errorCodesAndNamesAreUnique() {
        #expect(Set(ErrorCode.allCases.map(\.rawValue)).count == ErrorCode.allCases.count)
        #expect(Set(ErrorCode.allCases.map(\.name)).count == ErrorCode.allCases.count)
    }

    /// Failed before ErrorCode was open: the code arrived as 99 and re-encoded as 99.
    @Test func unknownErrorCodeFromANewerServerKeepsItsNumberAndReadsAsInternal() throws {
        let frame = Frame(type: MessageType.error.rawValue, requestID: 4, payload: [0x01, 0x2C] + stringField("something new"))
        let reply = try Reply(frame: frame)
        #expect(reply == .error(PickerError(ErrorCode(rawValue: 300), "something new")))
        guard case .error(let e) = reply else { return }
        #expect(!e.code.isKnown && e.code.name == "internal" && e.code.description == "error-300")
        #expect(reply.frame(id: 4) == frame)
    }

    /// Unknown input and output formats travel through (shown as `format-N`), so the reply
    /// re-encodes as received; before, unknown output formats were dropped.
    @Test func unknownInputAndOutputFormatsAreKept() throws {
        let caps = Reply.hello(Capabilities(version: 1, serverVersion: "s", maxRequestFrame: 1, maxReplyFrame: 2,
                                            inputFormats: [], outputFormats: [])).frame(id: 1)
        var payload = Array(caps.payload.dropLast(8))
        payload += [0, 0, 0, 3, 1, 200, 3] + [0, 0, 0, 2, 0, 2]
        let reply = try Reply(frame: Frame(type: MessageType.helloReply.rawValue, requestID: 1, payload: payload))
        guard case .hello(let decoded) = reply else {
            Issue.record("not a hello reply: \(reply)")
            return
        }
        #expect(decoded.inputFormats == [.jpeg, PhotoFormat(rawValue: 200), .webp])
        #expect(decoded.inputFormats[1].displayName == "format-200")
        #expect(decoded.outputFormats == [ImageFormat(rawValue: 0), .png])
        #expect(decoded.outputFormats[0].displayName == "format-0")
        #expect(reply.frame(id: 1).payload == payload)
    }

    @Test func thumbnailsReplyWithoutAnImageEndsAfterTheHasImageByte() {
        let frame = Reply.thumbnails(ThumbnailSheet(geometry: Self.emptyGrid, image: nil)).frame(id: 1)
        // nine u32 geometry fields, an empty cell list, has_image = 0
        #expect(frame.payload == [0, 0, 2, 0x80, 0, 0, 0, 32, 0, 0, 0, 100, 0, 0, 0, 10, 0, 0, 0, 16, 0, 0, 0, 5,
                                  0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1] + [0, 0, 0, 0] + [0])
    }

    @Test func thumbnailsReplyImageFieldsAreThoseOfTheImageReply() {
        let image = EncodedImage(format: .png, width: 640, height: 32, data: [1, 2, 3])
        let sheet = Reply.thumbnails(ThumbnailSheet(geometry: Self.emptyGrid, image: image)).frame(id: 1)
        let alone = Reply.image(image).frame(id: 1)
        #expect(sheet.payload == Array(sheet.payload.prefix(40)) + [1] + alone.payload)
    }

    @Test func cellFlagsAreSelectedBitZeroAndCurrentBitOne() throws {
        for (selected, current, byte) in [(false, false, 0), (true, false, 1), (false, true, 2), (true, true, 3)] as [(Bool, Bool, UInt8)] {
            let cell = GridCell(index: 1, name: "", x: 0, y: 0, size: 16, selected: selected, current: current)
            var geometry = Self.emptyGrid
            geometry.cells = [cell]
            let frame = Reply.thumbnails(ThumbnailSheet(geometry: geometry, image: nil)).frame(id: 1)
            #expect(frame.payload.suffix(2) == [byte, 0])
        }
    }

    @Test func unknownCellFlagBitsAreIgnored() throws {
        var geometry = Self.emptyGrid
        geometry.cells = [GridCell(index: 1, name: "a", x: 16, y: 16, size: 100, selected: false, current: false)]
        var payload = Reply.thumbnails(ThumbnailSheet(geometry: geometry, image: nil)).frame(id: 1).payload
        payload[payload.count - 2] = 0xF9  // bit 0 set, bits 1 and 2 clear, junk above
        let reply = try Reply(frame: Frame(type: MessageType.thumbnailsReply.rawValue, requestID: 1, payload: payload))
        geometry.cells[0].selected = true
        #expect(reply == .thumbnails(ThumbnailSheet(geometry: geometry, image: nil)))
    }

    @Test func zeroIndexesAndEmptyNamesDecodeAsNone() throws {
        var s = Self.emptySession
        s.height = 0
        s.album = ""
        s.albumIndex = 0
        s.photo = ""
        s.photoIndex = 0
        #expect(try Reply(frame: Reply.session(s).frame(id: 1)) == .session(Self.emptySession))
    }

    @Test func cancelReplyIsTheTargetIDThenABool() throws {
        let frame = Reply.cancelReply(requestID: 0x0102_0304, found: true).frame(id: 33)
        #expect(frame.type == 0x53)
        #expect(frame.payload == [1, 2, 3, 4, 1])
        let badBool = Frame(type: MessageType.cancelReply.rawValue, requestID: 33, payload: [0, 0, 0, 1, 2])
        #expect(thrownError { () throws(PickerError) in try Reply(frame: badBool) }?.code == .malformedFrame)
    }

    @Test func subscribedEchoesTheSubscribeFields() {
        let sub = Subscription(session: "main", library: true)
        #expect(Reply.subscribed(sub).frame(id: 30).payload == Request.subscribe(sub).frame(id: 30).payload)
        #expect(Reply.subscribed(sub).frame(id: 30).type == 0x51)
    }
}
