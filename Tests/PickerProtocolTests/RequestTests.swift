import PickerProtocol
import Testing

/// Every request case survives encode → frame bytes → decode unchanged.
@Suite struct RequestTests {
    static let samples: [Request] = [
        .hello(Hello(version: 1, clientName: "pickerctl")),
        .hello(Hello(version: 1, clientName: "")),
        .hello(Hello(version: 1, clientName: "エディタ 🖼️ plugin")),
        .ping,
        .photoInfo(session: "main", photo: nil),
        .photoInfo(session: "main", photo: .name("IMG_2.jpg")),
        .photoInfo(session: "", photo: .index(3)),
        .libraryInfo,
        .scanProgress,
        .sessionNew(NewSession(name: "default", width: 640, height: nil)),
        .sessionNew(NewSession(name: "写真", width: 16, height: 8192, maxSelection: 1, title: "Fotos 📷")),
        .sessionNew(NewSession(name: "max", width: Int(UInt32.max), height: Int(UInt32.max),
                               maxSelection: Int(UInt16.max), title: String(repeating: "é", count: 600))),
        .sessionList,
        .sessionShow(name: "main"),
        .sessionShow(name: ""),
        .sessionResize(name: "main", width: 1024, height: nil),
        .sessionResize(name: "main", width: 8192, height: 16),
        .sessionClose(name: "Ünïcødé"),
        .albums,
        .selectAlbum(session: "main", .name("旅行/京都")),
        .selectAlbum(session: "main", .name("")),
        .selectAlbum(session: "", .index(1)),
        .selectAlbum(session: "main", .index(Int(UInt32.max))),
        .photos(session: "main", sort: .name),
        .photos(session: "main", sort: .date),
        .setSort(session: "main", .date),
        .setSort(session: "", .name),
        .photosPage(PhotosPageRequest(session: "main", offset: 0, limit: 1000)),
        .photosPage(PhotosPageRequest(session: "写真", offset: Int(UInt32.max), limit: 0)),
        .selectPhoto(session: "main", .name("IMG_0001 (copy).JPG")),
        .selectPhoto(session: "main", .index(0)),
        .stepPhoto(session: "main", .next),
        .stepPhoto(session: "main", .previous),
        .status(session: "main"),
        .getImage(ImageRequest(session: "main")),
        .getImage(ImageRequest(session: "main", format: .jpeg, quality: 1, noCache: true)),
        .getImage(ImageRequest(session: "main", format: .webp, quality: 255, noCache: false)),
        .toggle(session: "main", .name("IMG_2.jpg")),
        .toggle(session: "main", .name("2024/京都/IMG_0001 (copy).JPG")),
        .toggle(session: "", .index(1)),
        .toggle(session: "main", .index(Int(UInt32.max))),
        .selection(session: "main"),
        .selection(session: ""),
        .clearSelection(session: "main"),
        .clearSelection(session: "写真"),
        .thumbnails(ThumbnailRequest(session: "main")),
        .thumbnails(ThumbnailRequest(session: "main", cellSize: 300, page: 2, geometryOnly: true)),
        .thumbnails(ThumbnailRequest(session: "max", cellSize: Int(UInt32.max), page: Int(UInt32.max), geometryOnly: false)),
        .thumbnails(ThumbnailRequest(session: "min", cellSize: 1, page: 1, geometryOnly: true)),
        .preview(PreviewRequest(session: "main")),
        .preview(PreviewRequest(session: "main", width: 640, height: 480, format: .symbols, cells: TerminalCells(columns: 1, rows: 1000))),
        .getImage(ImageRequest(session: "main", format: .symbols, noCache: true, cells: TerminalCells(columns: 1000, rows: 1))),
        .getImage(ImageRequest(session: "main", format: .sixel, cells: TerminalCells(columns: 80, rows: 24))),
        .preview(PreviewRequest(session: "main", width: 16, height: 8192, format: .jpeg, quality: 1)),
        .preview(PreviewRequest(session: "", width: Int(UInt32.max), height: 0, format: .webp, quality: 255)),
        .subscribe(Subscription(session: "main", library: true)),
        .subscribe(Subscription(session: "写真", library: false)),
        .subscribe(Subscription(session: nil, library: true)),
        .subscribe(Subscription(session: nil, library: false)),
        .cancel(requestID: 19),
        .cancel(requestID: 0),
        .cancel(requestID: .max),
        .sessionFinish(session: "main", .accepted),
        .sessionFinish(session: "main", .cancelled),
        .sessionFinish(session: "main", SessionOutcome(rawValue: 9)),
        .choices(session: "main"),
        .setChoice(session: "main", id: "encoding", value: "latin1"),
        .setChoice(session: "", id: "", value: ""),
        .sessionNew(NewSession(name: "portal-app", width: 800, height: 600, maxSelection: 1, title: "Open",
                               choices: GoldenVectorValues.choices)),
    ]

    @Test(arguments: samples)
    func requestRoundTripsThroughItsFrame(_ request: Request) throws {
        for id: UInt32 in [0, 1, 0xDEAD_BEEF, .max] {
            let wire = request.frame(id: id).encoded()
            var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
            decoder.append(wire)
            let frame = try #require(try decoder.next())
            #expect(frame.requestID == id)
            #expect(frame.type == request.messageType.rawValue)
            #expect(try Request(frame: frame) == request)
        }
    }

    @Test func everyRequestTypeHasARoundTripSample() {
        #expect(Set(Self.samples.map(\.messageType)) == requestTypes)
    }

    @Test func absentOptionalsTravelAsZeroAndEmpty() throws {
        let frame = Request.sessionNew(NewSession(name: "a", width: 100, height: nil)).frame(id: 1)
        // name "a", width 100, height 0, max_selection 0, title ""
        #expect(frame.payload == [0, 0, 0, 1, 0x61, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func zeroAndEmptyDecodeAsAbsent() throws {
        // A client that writes height 0, max_selection 0 and an empty title means "none / default".
        let sent = Request.sessionNew(NewSession(name: "a", width: 100, height: 0, maxSelection: 0, title: ""))
        let decoded = try Request(frame: sent.frame(id: 1))
        #expect(decoded == .sessionNew(NewSession(name: "a", width: 100, height: nil, maxSelection: nil, title: nil)))
        let resize = try Request(frame: Request.sessionResize(name: "a", width: 20, height: 0).frame(id: 2))
        #expect(resize == .sessionResize(name: "a", width: 20, height: nil))
        let image = try Request(frame: Request.getImage(ImageRequest(session: "a", quality: 0)).frame(id: 3))
        #expect(image == .getImage(ImageRequest(session: "a", quality: nil)))
        let grid = try Request(frame: Request.thumbnails(ThumbnailRequest(session: "a", cellSize: 0, page: 0)).frame(id: 4))
        #expect(grid == .thumbnails(ThumbnailRequest(session: "a", cellSize: nil, page: nil)))
        let preview = try Request(frame: Request.preview(PreviewRequest(session: "a", quality: 0)).frame(id: 5))
        #expect(preview == .preview(PreviewRequest(session: "a", quality: nil)))
    }

    @Test func thumbnailsAndPreviewFieldsAreInTheDocumentedOrder() {
        // session, u32 cell_size, u32 page, u8 flags
        let grid = Request.thumbnails(ThumbnailRequest(session: "a", cellSize: 300, page: 2, geometryOnly: true)).frame(id: 1)
        #expect(grid.payload == stringField("a") + [0, 0, 1, 0x2C, 0, 0, 0, 2, 1])
        let defaults = Request.thumbnails(ThumbnailRequest(session: "a")).frame(id: 1)
        #expect(defaults.payload == stringField("a") + [0, 0, 0, 0, 0, 0, 0, 0, 0])
        // session, u32 width, u32 height, u8 format, u8 quality
        let preview = Request.preview(PreviewRequest(session: "a", width: 1920, height: 1080, format: .webp, quality: 75)).frame(id: 1)
        #expect(preview.payload == stringField("a") + [0, 0, 0x07, 0x80, 0, 0, 0x04, 0x38, 3, 75])
    }

    @Test func unknownFlagBitsInThumbnailsAreIgnored() throws {
        // Bits 1 and 2 announce cells and a format; bits 3–7 mean nothing yet.
        let payload = stringField("a") + [0, 0, 0, 0, 0, 0, 0, 0, 0xF8]
        let request = try Request(frame: Frame(type: MessageType.thumbnails.rawValue, requestID: 1, payload: payload))
        #expect(request == .thumbnails(ThumbnailRequest(session: "a", geometryOnly: false)))
    }

    @Test func thumbnailsFormatAndCellsFollowTheFlagsOnlyWhenAskedFor() throws {
        let symbols = Request.thumbnails(ThumbnailRequest(session: "a", format: .symbols,
                                                          cells: TerminalCells(columns: 60, rows: 20))).frame(id: 1)
        #expect(symbols.payload == stringField("a") + [0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 0, 60, 0, 20])
        let png = Request.thumbnails(ThumbnailRequest(session: "a", format: .png)).frame(id: 1)
        #expect(png.payload == stringField("a") + [0, 0, 0, 0, 0, 0, 0, 0, 0])
        let unknownFormat = stringField("a") + [0, 0, 0, 0, 0, 0, 0, 0, 4, 99]
        #expect(throws: PickerError.self) {
            try Request(frame: Frame(type: MessageType.thumbnails.rawValue, requestID: 1, payload: unknownFormat))
        }
        let zeroCells = stringField("a") + [0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 0, 0, 0, 20]
        do {
            _ = try Request(frame: Frame(type: MessageType.thumbnails.rawValue, requestID: 1, payload: zeroCells))
            Issue.record("cells 0x20 were accepted")
        } catch {
            #expect(error.code == .outOfRange)
        }
    }

    @Test func toggleCarriesASelectorLikeSelectPhoto() {
        let toggle = Request.toggle(session: "main", .name("IMG_2.jpg")).frame(id: 1)
        let select = Request.selectPhoto(session: "main", .name("IMG_2.jpg")).frame(id: 1)
        #expect(toggle.payload == select.payload)
        #expect(toggle.type == 0x40)
    }

    @Test func integersOutsideTheWireRangeAreClampedNotTrapped() throws {
        let big = Request.sessionNew(NewSession(name: "a", width: Int.max, height: -5, maxSelection: 1 << 20, title: nil))
        #expect(try Request(frame: big.frame(id: 1)) == .sessionNew(NewSession(name: "a", width: Int(UInt32.max), height: nil,
                                                                             maxSelection: Int(UInt16.max), title: nil)))
        let negative = Request.selectPhoto(session: "a", .index(-1))
        #expect(try Request(frame: negative.frame(id: 1)) == .selectPhoto(session: "a", .index(0)))
    }

    @Test func unknownFlagBitsInGetImageAreIgnored() throws {
        // Bit 0 is no-cache and bit 1 announces cells; the other six are unknown.
        let payload = stringField("a") + [2, 0, 0xFC]
        let request = try Request(frame: Frame(type: MessageType.getImage.rawValue, requestID: 1, payload: payload))
        #expect(request == .getImage(ImageRequest(session: "a", format: .png, quality: nil, noCache: false)))
    }

    @Test func sessionNameIsTheOneRequestsAreOrderedBy() {
        #expect(Request.ping.sessionName == nil)
        #expect(Request.albums.sessionName == nil)
        #expect(Request.sessionNew(NewSession(name: "n", width: 20, height: nil)).sessionName == "n")
        #expect(Request.getImage(ImageRequest(session: "g")).sessionName == "g")
        #expect(Request.selectAlbum(session: "s", .index(1)).sessionName == "s")
        #expect(Request.toggle(session: "t", .index(1)).sessionName == "t")
        #expect(Request.selection(session: "l").sessionName == "l")
        #expect(Request.clearSelection(session: "c").sessionName == "c")
        #expect(Request.thumbnails(ThumbnailRequest(session: "g")).sessionName == "g")
        #expect(Request.preview(PreviewRequest(session: "p")).sessionName == "p")
    }

    @Test func helloOfAnotherVersionDecodesWhateverFollowsItsVersion() throws {
        // A future client's hello may carry other fields: the server must still see the version
        // (to answer unsupported_version) instead of failing with malformed_frame.
        let future = Frame(type: MessageType.hello.rawValue, requestID: 1, payload: [0, 2, 0xFF, 0xFE, 0x01])
        #expect(try Request(frame: future) == .hello(Hello(version: 2, clientName: "")))
        let sameShape = Request.hello(Hello(version: 7, clientName: "next")).frame(id: 1)
        #expect(try Request(frame: sameShape) == .hello(Hello(version: 7, clientName: "next")))
    }

    @Test func helloOfThisVersionIsDecodedStrictly() {
        let trailing = Frame(type: MessageType.hello.rawValue, requestID: 1, payload: [0, 1] + stringField("x") + [0])
        #expect(thrownError { () throws(PickerError) in try Request(frame: trailing) }?.code == .malformedFrame)
        let short = Frame(type: MessageType.hello.rawValue, requestID: 1, payload: [0])
        #expect(thrownError { () throws(PickerError) in try Request(frame: short) }?.code == .malformedFrame)
    }

    @Test func subscribeIsSessionThenFlagsAndEmptyMeansNone() throws {
        let both = Request.subscribe(Subscription(session: "main", library: true)).frame(id: 30)
        #expect(both.type == 0x50)
        #expect(both.payload == stringField("main") + [1])
        let none = Request.subscribe(Subscription(session: nil, library: false)).frame(id: 31)
        #expect(none.payload == [0, 0, 0, 0, 0])
        let empty = Frame(type: MessageType.subscribe.rawValue, requestID: 1, payload: stringField("") + [1])
        #expect(try Request(frame: empty) == .subscribe(Subscription(session: nil, library: true)))
    }

    @Test func cancelCarriesTheTargetRequestID() {
        let frame = Request.cancel(requestID: 0x0102_0304).frame(id: 32)
        #expect(frame.type == 0x52)
        #expect(frame.requestID == 32)
        #expect(frame.payload == [1, 2, 3, 4])
    }

    @Test func connectionLevelRequestsNameNoSession() {
        #expect(Request.subscribe(Subscription(session: "main", library: false)).sessionName == nil)
        #expect(Request.cancel(requestID: 1).sessionName == nil)
    }

    @Test(arguments: [(0, 24), (80, 0), (1001, 24), (80, 1001), (65535, 65535)])
    func cellsOutsideOneToThousandAreOutOfRange(columns: Int, rows: Int) {
        let getImage = stringField("a") + [7, 0, 2] + u16(columns) + u16(rows)
        let preview = stringField("a") + [0, 0, 2, 128, 0, 0, 1, 224, 7, 0, 2] + u16(columns) + u16(rows)
        for (type, payload) in [(MessageType.getImage, getImage), (.preview, preview)] {
            let error = thrownError { () throws(PickerError) in
                try Request(frame: Frame(type: type.rawValue, requestID: 1, payload: payload))
            }
            #expect(error?.code == .outOfRange, "\(type) with cells \(columns)x\(rows)")
        }
    }

    @Test func previewWithoutTheOptionalFlagsByteHasNoCells() throws {
        let payload = stringField("a") + [0, 0, 2, 128, 0, 0, 1, 224, 2, 0]
        let request = try Request(frame: Frame(type: MessageType.preview.rawValue, requestID: 1, payload: payload))
        #expect(request == .preview(PreviewRequest(session: "a", width: 640, height: 480, format: .png)))
        // The encoder leaves the flags byte out when there are no cells: old frames stay byte for byte.
        #expect(Request.preview(PreviewRequest(session: "a", width: 640, height: 480)).frame(id: 1).payload == payload)
    }

    private func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
