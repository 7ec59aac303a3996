import PickerProtocol
import Testing

/// Every request case survives encode → frame bytes → decode unchanged.
@Suite struct RequestTests {
    static let samples: [Request] = [
        .hello(Hello(version: 1, clientName: "pickerctl")),
        .hello(Hello(version: 1, clientName: "")),
        .hello(Hello(version: 1, clientName: "エディタ 🖼️ plugin")),
        .ping,
        .libraryInfo,
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
        .selectPhoto(session: "main", .name("IMG_0001 (copy).JPG")),
        .selectPhoto(session: "main", .index(0)),
        .stepPhoto(session: "main", .next),
        .stepPhoto(session: "main", .previous),
        .status(session: "main"),
        .getImage(ImageRequest(session: "main")),
        .getImage(ImageRequest(session: "main", format: .jpeg, quality: 1, noCache: true)),
        .getImage(ImageRequest(session: "main", format: .webp, quality: 255, noCache: false)),
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
    }

    @Test func integersOutsideTheWireRangeAreClampedNotTrapped() throws {
        let big = Request.sessionNew(NewSession(name: "a", width: Int.max, height: -5, maxSelection: 1 << 20, title: nil))
        #expect(try Request(frame: big.frame(id: 1)) == .sessionNew(NewSession(name: "a", width: Int(UInt32.max), height: nil,
                                                                             maxSelection: Int(UInt16.max), title: nil)))
        let negative = Request.selectPhoto(session: "a", .index(-1))
        #expect(try Request(frame: negative.frame(id: 1)) == .selectPhoto(session: "a", .index(0)))
    }

    @Test func unknownFlagBitsInGetImageAreIgnored() throws {
        let payload = stringField("a") + [2, 0, 0xFE]
        let request = try Request(frame: Frame(type: MessageType.getImage.rawValue, requestID: 1, payload: payload))
        #expect(request == .getImage(ImageRequest(session: "a", format: .png, quality: nil, noCache: false)))
    }

    @Test func sessionNameIsTheOneRequestsAreOrderedBy() {
        #expect(Request.ping.sessionName == nil)
        #expect(Request.albums.sessionName == nil)
        #expect(Request.sessionNew(NewSession(name: "n", width: 20, height: nil)).sessionName == "n")
        #expect(Request.getImage(ImageRequest(session: "g")).sessionName == "g")
        #expect(Request.selectAlbum(session: "s", .index(1)).sessionName == "s")
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
}
