import PickerProtocol

/// What each vector in docs/PROTOCOL.md means, by label. The bytes must decode to exactly this,
/// so a byte edited in the document (even to another valid value) fails a test.
enum GoldenVectorValues {
    enum Message: Equatable {
        case request(Request)
        case reply(Reply)
        case event(Event)
    }

    static let kyoto = SessionState(
        name: "main", title: "Photo Library", width: 800, height: 600, maxSelection: 10, selectionCount: 2,
        album: "2024/Kyoto", albumIndex: 2, photo: "IMG_2.jpg", photoIndex: 1, photoCount: 12,
        message: "4032x3024 px, 3.1 MB, JPEG")
    static let fresh = SessionState(
        name: "default", title: "Photo Library", width: 640, height: nil, maxSelection: 10, selectionCount: 0,
        album: nil, albumIndex: nil, photo: nil, photoIndex: nil, photoCount: 0, message: "")
    static let picked = SelectedPhoto(album: "2024/Kyoto", name: "IMG_2.jpg", width: 4032, height: 3024,
                                      path: "2024/Kyoto/IMG_2.jpg", absolutePath: "/home/ann/Pictures/2024/Kyoto/IMG_2.jpg")
    /// A host app's two choices: a check box, and a list of two options (PROTOCOL.md, `choicesReply`).
    static let choices = [
        SessionChoice(id: "compress", label: "Compress", value: "true"),
        SessionChoice(id: "encoding", label: "Encoding", options: [.init(id: "utf8", label: "UTF-8"), .init(id: "latin1", label: "Latin-1")],
                      value: "utf8"),
    ]
    static let details: PhotoDetails = {
        var d = PhotoDetails(path: "2024/Kyoto/IMG_2.jpg", name: "IMG_2.jpg", format: .jpeg, width: 4032, height: 3024,
                             bytes: 3_100_000, date: 1_700_000_000, dateSource: .exif)
        d.cameraMake = "Canon"
        d.cameraModel = "EOS R5"
        d.lens = "RF24-105mm"
        d.exposureTime = PhotoDetails.Rational(1, 250)
        d.fNumber = PhotoDetails.Rational(28, 10)
        d.focalLength = PhotoDetails.Rational(50, 1)
        d.iso = 400
        d.colourProfile = "Display P3"
        d.hasGPS = true
        return d
    }()
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

    static let byLabel: [String: Message] = [
        "hello id=1": .request(.hello(Hello(version: 1, clientName: "pickerctl"))),
        "ping id=7": .request(.ping),
        "libraryInfo id=2": .request(.libraryInfo),
        "scanProgress id=3": .request(.scanProgress),
        "sessionNew id=3": .request(.sessionNew(NewSession(name: "default", width: 640, height: nil))),
        "sessionNew id=4 all fields": .request(.sessionNew(NewSession(name: "main", width: 800, height: 600, maxSelection: 5, title: "Trip"))),
        "sessionList id=5": .request(.sessionList),
        "sessionShow id=6": .request(.sessionShow(name: "main")),
        "sessionResize id=8": .request(.sessionResize(name: "main", width: 1024, height: 768)),
        "sessionClose id=9": .request(.sessionClose(name: "main")),
        "albums id=10": .request(.albums),
        "selectAlbum id=11 by name": .request(.selectAlbum(session: "main", .name("旅行/京都"))),
        "selectAlbum id=12 by index": .request(.selectAlbum(session: "main", .index(2))),
        "photos id=13": .request(.photos(session: "main", sort: .date)),
        "selectPhoto id=14 by name": .request(.selectPhoto(session: "main", .name("IMG_2.jpg"))),
        "selectPhoto id=15 by index": .request(.selectPhoto(session: "main", .index(3))),
        "stepPhoto id=16": .request(.stepPhoto(session: "main", .next)),
        "stepPhoto id=17 previous": .request(.stepPhoto(session: "main", .previous)),
        "status id=18": .request(.status(session: "main")),
        "photoInfo id=70": .request(.photoInfo(session: "main", photo: nil)),
        "photoInfoReply id=70": .reply(.photoInfo(GoldenVectorValues.details)),
        "getImage id=19": .request(.getImage(ImageRequest(session: "main"))),
        "getImage id=20 jpeg": .request(.getImage(ImageRequest(session: "main", format: .jpeg, quality: 90, noCache: true))),
        "getImage id=60 symbols": .request(.getImage(ImageRequest(session: "main", format: .symbols,
                                                                  cells: TerminalCells(columns: 80, rows: 24)))),
        "getImage id=62 sixel": .request(.getImage(ImageRequest(session: "main", format: .sixel))),
        "toggle id=22 by name": .request(.toggle(session: "main", .name("IMG_2.jpg"))),
        "toggle id=23 by index": .request(.toggle(session: "main", .index(7))),
        "selection id=24": .request(.selection(session: "main")),
        "clearSelection id=25": .request(.clearSelection(session: "main")),
        "thumbnails id=26": .request(.thumbnails(ThumbnailRequest(session: "default"))),
        "thumbnails id=27 geometry only": .request(.thumbnails(ThumbnailRequest(session: "main", cellSize: 300, page: 2,
                                                                                 geometryOnly: true))),
        "thumbnails id=63 symbols": .request(.thumbnails(ThumbnailRequest(session: "main", format: .symbols,
                                                                          cells: TerminalCells(columns: 60, rows: 20)))),
        "thumbnails id=64 sixel": .request(.thumbnails(ThumbnailRequest(session: "main", cellSize: 100, page: 1,
                                                                        format: .sixel))),
        "preview id=28": .request(.preview(PreviewRequest(session: "main", width: 1920, height: 1080, format: .jpeg))),
        "preview id=61 symbols": .request(.preview(PreviewRequest(session: "main", width: 1920, height: 1080, format: .symbols,
                                                                  cells: TerminalCells(columns: 120, rows: 40)))),
        "subscribe id=30": .request(.subscribe(Subscription(session: "main", library: true))),
        "subscribe id=33 end events": .request(.subscribe(Subscription(session: nil, library: false))),
        "cancel id=31": .request(.cancel(requestID: 20)),
        "sessionFinish id=34 accepted": .request(.sessionFinish(session: "main", .accepted)),
        "choices id=36": .request(.choices(session: "main")),
        "setChoice id=37": .request(.setChoice(session: "main", id: "encoding", value: "latin1")),
        "choicesReply id=36": .reply(.choices(GoldenVectorValues.choices)),
        "choicesReply id=38 none": .reply(.choices([])),

        "helloReply id=1": .reply(.hello(Capabilities(
            version: 1, serverVersion: Release.serverVersion, maxRequestFrame: 1 << 20, maxReplyFrame: 256 << 20,
            inputFormats: [.jpeg, .png, .webp], outputFormats: [.png, .jpeg, .webp]))),
        "error id=6": .reply(.error(PickerError(.noSuchSession, "no session named 'main'"))),
        "error id=0 frame too large": .reply(.error(FrameDecoder.Failure.tooLarge(length: 2_000_000, max: 1 << 20).pickerError)),
        "pong id=7": .reply(.pong(serverVersion: Release.serverVersion)),
        "scanProgressReply id=3": .reply(.scanProgress(ScanProgress(
            state: .scanning, filesDone: 41_200, filesExpected: 100_000, elapsedMilliseconds: 1100))),
        "libraryInfoReply id=2": .reply(.libraryInfo(LibraryInfo(
            root: "/home/ann/Pictures", albumCount: 3, photoCount: 42, scanState: .ready,
            scannedAt: 1_764_400_000, skippedCount: 1))),
        "sessionState id=3": .reply(.session(fresh)),
        "sessionState id=14 with a photo": .reply(.session(kyoto)),
        "sessionListReply id=5": .reply(.sessionList([fresh])),
        "sessionListReply id=21 empty": .reply(.sessionList([])),
        "sessionClosed id=9": .reply(.sessionClosed(name: "main")),
        "albumsReply id=10": .reply(.albums([AlbumInfo(index: 1, name: "All Photos", photoCount: 42),
                                             AlbumInfo(index: 2, name: "2024/Kyoto", photoCount: 12)])),
        "photosReply id=13": .reply(.photos(PhotoList(album: "2024/Kyoto", photos: [
            PhotoInfo(index: 1, name: "IMG_2.jpg", path: "2024/Kyoto/IMG_2.jpg", width: 4032, height: 3024, bytes: 3_145_728, format: .jpeg,
                      date: 1_714_000_000, dateSource: .exif)]))),
        "image id=19": .reply(.image(EncodedImage(format: .png, width: 640, height: 480,
                                                 data: pngSignature))),
        "selectionReply id=22": .reply(.selection(SelectionList(maxSelection: 10, photos: [picked]))),
        "selectionReply id=25 empty": .reply(.selection(SelectionList(maxSelection: 10, photos: []))),
        "error id=23 selection full": .reply(.error(PickerError(
            .selectionFull, "cannot pick 'IMG_8.jpg': the selection is full (limit 10 photos)"))),
        "thumbnailsReply id=26 with image": .reply(.thumbnails(ThumbnailSheet(
            geometry: GridGeometry(width: 640, height: 132, cellSize: 100, spacing: 10, padding: 16, columns: 5, rows: 1,
                                   page: 1, pages: 1, cells: [
                                       GridCell(index: 1, name: "IMG_2.jpg", x: 16, y: 16, size: 100, selected: false, current: false),
                                   ]),
            image: EncodedImage(format: .png, width: 640, height: 132, data: pngSignature)))),
        "thumbnailsReply id=27": .reply(.thumbnails(ThumbnailSheet(
            geometry: GridGeometry(width: 800, height: 332, cellSize: 300, spacing: 10, padding: 16, columns: 2, rows: 1,
                                   page: 2, pages: 6, cells: [
                                       GridCell(index: 3, name: "IMG_4.jpg", x: 16, y: 16, size: 300, selected: true, current: true),
                                       GridCell(index: 4, name: "IMG_5.jpg", x: 326, y: 16, size: 300, selected: false, current: false),
                                   ]),
            image: nil))),
        "image id=28 preview": .reply(.image(EncodedImage(format: .jpeg, width: 1920, height: 1080,
                                                         data: [0xff, 0xd8, 0xff, 0xe0]))),
        "image id=60 symbols": .reply(.image(EncodedImage(format: .symbols, width: 72, height: 24,
                                                         data: Array("\u{1b}[0m".utf8)))),
        "image id=62 sixel": .reply(.image(EncodedImage(format: .sixel, width: 640, height: 426,
                                                       data: Array("\u{1b}P0;1;0q\"1;1;640;426".utf8)))),
        "subscribed id=30": .reply(.subscribed(Subscription(session: "main", library: true))),
        "subscribed id=33 end events": .reply(.subscribed(Subscription(session: nil, library: false))),
        "cancelReply id=31": .reply(.cancelReply(requestID: 20, found: true)),
        "cancelReply id=32 not found": .reply(.cancelReply(requestID: 7, found: false)),
        "error id=20 cancelled": .reply(.error(PickerError(.cancelled, "cancelled by the client"))),
        "error id=19 superseded": .reply(.error(PickerError(
            .cancelled, "superseded by a newer image request on session 'main'"))),

        // Paging and the session's order (issue 11).
        "setSort id=34": .request(.setSort(session: "main", .date)),
        "photosPage id=35": .request(.photosPage(PhotosPageRequest(session: "main", offset: 1000, limit: 1000))),
        "photosPageReply id=35": .reply(.photosPage(PhotoPage(album: "All Photos", sort: .date, total: 1001, offset: 1000, photos: [
            PhotoInfo(index: 1001, name: "IMG_2.jpg", path: "2024/Kyoto/IMG_2.jpg", width: 4032, height: 3024, bytes: 3_145_728,
                      format: .jpeg, date: 1_714_000_000, dateSource: .exif)]))),
        // Broken photos (issue 14): a page asked with marks, and its reply naming one broken row.
        "photosPage id=37 marking broken": .request(.photosPage(PhotosPageRequest(session: "main", offset: 0, limit: 1,
                                                                                   markBroken: true))),
        "photosPageReply id=37 marked broken": .reply(.photosPage(PhotoPage(album: "2024", sort: .name, total: 1, offset: 0, photos: [
            PhotoInfo(index: 1, name: "cut.jpg", path: "2024/cut.jpg", width: 2725, height: 2225, bytes: 10_000,
                      format: .jpeg, date: 1_714_000_000, dateSource: .modified,
                      broken: "corrupt JPEG data: Premature end of JPEG file")], marksBroken: true))),
        "error id=36 page past the end": .reply(.error(PickerError(
            .noSuchPhoto, "no page at offset 2000: album 'All Photos' has 1001 photos"))),

        "sessionEvent id=30 selection": .event(.session(.selection, kyoto)),
        "libraryEvent id=30": .event(.library(LibraryInfo(
            root: "/home/ann/Pictures", albumCount: 3, photoCount: 43, scanState: .ready,
            scannedAt: 1_764_400_300, skippedCount: 1))),
        "scanProgressEvent id=30": .event(.scanProgress(ScanProgress(
            state: .scanning, filesDone: 41_200, filesExpected: 100_000, elapsedMilliseconds: 1100))),
        "libraryChangesEvent id=30": .event(.libraryChanges(LibraryChanges(
            added: ["2024/Kyoto/IMG_0042.jpg"], removed: ["2024/Kyoto/IMG_0007.jpg"], changed: []))),
    ]
}
