/// Everything a server answers. Each reply echoes its request's id.
public enum Reply: Sendable, Equatable {
    case hello(Capabilities)
    case error(PickerError)
    case pong(serverVersion: String)
    case libraryInfo(LibraryInfo)
    case scanProgress(ScanProgress)
    case session(SessionState)
    case sessionList([SessionState])
    case sessionClosed(name: String)
    case albums([AlbumInfo])
    case photos(PhotoList)
    case photosPage(PhotoPage)
    case image(EncodedImage)
    case selection(SelectionList)
    case thumbnails(ThumbnailSheet)
    case subscribed(Subscription)
    /// Whether the request was still in flight (it then gets a `cancelled` error).
    case cancelReply(requestID: UInt32, found: Bool)

    public var messageType: MessageType {
        switch self {
        case .hello: return .helloReply
        case .error: return .error
        case .pong: return .pong
        case .libraryInfo: return .libraryInfoReply
        case .scanProgress: return .scanProgressReply
        case .session: return .sessionState
        case .sessionList: return .sessionListReply
        case .sessionClosed: return .sessionClosed
        case .albums: return .albumsReply
        case .photos: return .photosReply
        case .photosPage: return .photosPageReply
        case .image: return .image
        case .selection: return .selectionReply
        case .thumbnails: return .thumbnailsReply
        case .subscribed: return .subscribed
        case .cancelReply: return .cancelReply
        }
    }
}

extension Reply {
    /// Enough capacity up front that an image payload is copied once, not regrown.
    var estimatedPayloadSize: Int {
        switch self {
        case .image(let img): return img.data.count + 32
        case .thumbnails(let sheet): return (sheet.image?.data.count ?? 0) + sheet.geometry.cells.count * 64 + 64
        default: return 256
        }
    }

    public func frame(id: UInt32) -> Frame {
        var w = ByteWriter(capacity: estimatedPayloadSize)
        switch self {
        case .hello(let c):
            w.u16(c.version)
            w.string(c.serverVersion)
            w.u32(c.maxRequestFrame)
            w.u32(c.maxReplyFrame)
            w.count(c.inputFormats.count)
            for f in c.inputFormats { w.u8(f.rawValue) }
            w.count(c.outputFormats.count)
            for f in c.outputFormats { w.u8(f.rawValue) }
        case .error(let e):
            w.u16(e.code.rawValue)
            w.string(e.message)
        case .pong(let v):
            w.string(v)
        case .libraryInfo(let l):
            Reply.encodeLibraryInfo(l, into: &w)
        case .scanProgress(let p):
            p.encode(into: &w)
        case .session(let s):
            Reply.encodeSession(s, into: &w)
        case .sessionList(let list):
            w.count(list.count)
            for s in list { Reply.encodeSession(s, into: &w) }
        case .subscribed(let s):
            s.encode(into: &w)
        case let .cancelReply(id, found):
            w.u32(id)
            w.bool(found)
        case .sessionClosed(let name):
            w.string(name)
        case .albums(let albums):
            w.count(albums.count)
            for a in albums {
                w.count(a.index)
                w.string(a.name)
                w.count(a.photoCount)
            }
        case .photos(let list):
            w.string(list.album)
            w.count(list.photos.count)
            for p in list.photos { Reply.encodePhoto(p, into: &w) }
        case .photosPage(let page):
            w.string(page.album)
            w.u8(page.sort.rawValue)
            w.count(page.total)
            w.count(page.offset)
            w.count(page.photos.count)
            for p in page.photos { Reply.encodePhoto(p, into: &w) }
            if page.marksBroken { Reply.encodeBroken(page.photos, into: &w) }
        case .image(let img):
            Reply.encodeImage(img, into: &w)
        case .selection(let list):
            w.u16(UInt16(clamping: list.maxSelection))
            w.count(list.photos.count)
            for p in list.photos {
                w.string(p.album)
                w.string(p.name)
                w.count(p.width)
                w.count(p.height)
                w.string(p.path)
                w.string(p.absolutePath)
            }
        case .thumbnails(let sheet):
            let g = sheet.geometry
            for v in [g.width, g.height, g.cellSize, g.spacing, g.padding, g.columns, g.rows, g.page, g.pages] { w.count(v) }
            w.count(g.cells.count)
            for c in g.cells {
                w.count(c.index)
                w.string(c.name)
                w.count(c.x)
                w.count(c.y)
                w.count(c.size)
                w.u8((c.selected ? 1 : 0) | (c.current ? 2 : 0) | (c.broken ? 4 : 0))
            }
            if let img = sheet.image {
                w.u8(1)
                Reply.encodeImage(img, into: &w)
            } else {
                w.u8(0)
            }
        }
        return Frame(type: messageType.rawValue, requestID: id, payload: w.bytes)
    }

    /// Decodes a reply frame (event frames are not replies and are refused here).
    public init(frame: Frame) throws(PickerError) {
        guard let type = MessageType(rawValue: frame.type) else {
            throw PickerError(.unknownMessageType, "unknown message type 0x\(hex(frame.type))")
        }
        var r = ByteReader(frame.payload)
        switch type {
        case .helloReply:
            let version = try r.u16()
            let server = try r.string()
            let maxReq = try r.u32()
            let maxRep = try r.u32()
            let inputs = try Reply.photoFormats(&r)
            let outputs = try Reply.formats(&r)
            self = .hello(Capabilities(version: version, serverVersion: server, maxRequestFrame: maxReq,
                                       maxReplyFrame: maxRep, inputFormats: inputs, outputFormats: outputs))
        case .error:
            let raw = try r.u16()
            let message = try r.string()
            // A code from a newer server keeps its number (handled like `internal`).
            self = .error(PickerError(ErrorCode(rawValue: raw), message))
        case .pong:
            self = .pong(serverVersion: try r.string())
        case .libraryInfoReply:
            self = .libraryInfo(try Reply.decodeLibraryInfo(&r))
        case .scanProgressReply:
            self = .scanProgress(try ScanProgress.decode(from: &r))
        case .subscribed:
            self = .subscribed(try Subscription.decode(from: &r))
        case .cancelReply:
            self = .cancelReply(requestID: try r.u32(), found: try r.bool())
        case .sessionEvent, .libraryEvent, .libraryChangesEvent, .scanProgressEvent:
            throw PickerError(.unknownMessageType, "message type 0x\(hex(frame.type)) is an event, not a reply")
        case .sessionState:
            self = .session(try Reply.decodeSession(&r))
        case .sessionListReply:
            let n = try r.count(minElementSize: 44)
            var list: [SessionState] = []
            for _ in 0..<n { list.append(try Reply.decodeSession(&r)) }
            self = .sessionList(list)
        case .sessionClosed:
            self = .sessionClosed(name: try r.string())
        case .albumsReply:
            let n = try r.count(minElementSize: 12)
            var albums: [AlbumInfo] = []
            for _ in 0..<n {
                albums.append(AlbumInfo(index: Int(try r.u32()), name: try r.string(), photoCount: Int(try r.u32())))
            }
            self = .albums(albums)
        case .photosReply:
            let album = try r.string()
            self = .photos(PhotoList(album: album, photos: try Reply.decodePhotos(&r)))
        case .photosPageReply:
            let album = try r.string()
            let sort = PhotoSort(rawValue: try r.u8())  // a newer server's order is kept
            let total = Int(try r.u32())
            let offset = Int(try r.u32())
            var photos = try Reply.decodePhotos(&r)
            // The optional trailing broken list, present when the request asked for it.
            let marksBroken = r.remaining > 0
            if marksBroken { try Reply.decodeBroken(&r, into: &photos) }
            self = .photosPage(PhotoPage(album: album, sort: sort, total: total, offset: offset,
                                         photos: photos, marksBroken: marksBroken))
        case .image:
            self = .image(try Reply.decodeImage(&r))
        case .selectionReply:
            let maxSel = Int(try r.u16())
            let n = try r.count(minElementSize: 24)
            var photos: [SelectedPhoto] = []
            for _ in 0..<n {
                photos.append(SelectedPhoto(album: try r.string(), name: try r.string(), width: Int(try r.u32()),
                                            height: Int(try r.u32()), path: try r.string(), absolutePath: try r.string()))
            }
            self = .selection(SelectionList(maxSelection: maxSel, photos: photos))
        case .thumbnailsReply:
            var v: [Int] = []
            for _ in 0..<9 { v.append(Int(try r.u32())) }
            let n = try r.count(minElementSize: 21)
            var cells: [GridCell] = []
            for _ in 0..<n {
                let index = Int(try r.u32())
                let name = try r.string()
                let x = Int(try r.u32())
                let y = Int(try r.u32())
                let size = Int(try r.u32())
                let flags = try r.u8()
                cells.append(GridCell(index: index, name: name, x: x, y: y, size: size,
                                      selected: flags & 1 != 0, current: flags & 2 != 0, broken: flags & 4 != 0))
            }
            let geometry = GridGeometry(width: v[0], height: v[1], cellSize: v[2], spacing: v[3], padding: v[4],
                                        columns: v[5], rows: v[6], page: v[7], pages: v[8], cells: cells)
            let image = try r.bool() ? try Reply.decodeImage(&r) : nil
            self = .thumbnails(ThumbnailSheet(geometry: geometry, image: image))
        case .hello, .ping, .libraryInfo, .scanProgress, .sessionNew, .sessionList, .sessionShow, .sessionResize, .sessionClose,
             .albums, .selectAlbum, .photos, .selectPhoto, .stepPhoto, .status, .setSort, .photosPage, .getImage, .toggle, .selection,
             .clearSelection, .thumbnails, .preview, .subscribe, .cancel:
            throw PickerError(.unknownMessageType, "message type 0x\(hex(frame.type)) is a request, not a reply")
        }
        try r.expectEnd()
    }

    /// One row of `photosReply` / `photosPageReply`.
    private static func encodePhoto(_ p: PhotoInfo, into w: inout ByteWriter) {
        w.count(p.index)
        w.string(p.name)
        w.string(p.path)
        w.count(p.width)
        w.count(p.height)
        w.u64(UInt64(clamping: max(0, p.bytes)))
        w.u8(p.format.rawValue)
        w.i64(p.date)
        w.u8(p.dateSource.rawValue)
    }

    /// `photosPageReply`'s trailing list: the rows known broken, as (index, reason).
    private static func encodeBroken(_ photos: [PhotoInfo], into w: inout ByteWriter) {
        let broken = photos.filter { $0.broken != nil }
        w.count(broken.count)
        for p in broken {
            w.count(p.index)
            w.string(p.broken ?? "")
        }
    }

    /// Reads the trailing broken list onto the page's rows; an index not on the page is `malformed_frame`.
    private static func decodeBroken(_ r: inout ByteReader, into photos: inout [PhotoInfo]) throws(PickerError) {
        let n = try r.count(minElementSize: 8)
        for _ in 0..<n {
            let index = Int(try r.u32())
            let reason = try r.string()
            guard let row = photos.firstIndex(where: { $0.index == index }) else {
                throw PickerError(.malformedFrame, "broken row \(index) is not on the page")
            }
            photos[row].broken = reason
        }
    }

    /// A `list<photo>`: the count is checked against the bytes left before anything is allocated.
    private static func decodePhotos(_ r: inout ByteReader) throws(PickerError) -> [PhotoInfo] {
        let n = try r.count(minElementSize: 38)
        var photos: [PhotoInfo] = []
        for _ in 0..<n {
            let index = Int(try r.u32())
            let name = try r.string()
            let path = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let bytes = Int64(clamping: try r.u64())
            // A photo format this build does not know still arrives (PhotoFormat keeps its value).
            let format = PhotoFormat(rawValue: try r.u8())
            let date = try r.i64()
            let source = PhotoInfo.DateSource(rawValue: try r.u8())
            photos.append(PhotoInfo(index: index, name: name, path: path, width: width, height: height, bytes: bytes,
                                    format: format, date: date, dateSource: source))
        }
        return photos
    }

    private static func encodeImage(_ img: EncodedImage, into w: inout ByteWriter) {
        w.u8(img.format.rawValue)
        w.count(img.width)
        w.count(img.height)
        w.blob(img.data)
    }

    private static func decodeImage(_ r: inout ByteReader) throws(PickerError) -> EncodedImage {
        // An output format from a newer server is kept (`format-N`).
        return EncodedImage(format: ImageFormat(rawValue: try r.u8()), width: Int(try r.u32()), height: Int(try r.u32()), data: try r.blob())
    }

    private static func photoFormats(_ r: inout ByteReader) throws(PickerError) -> [PhotoFormat] {
        let n = try r.count()
        var out: [PhotoFormat] = []
        for _ in 0..<n { out.append(PhotoFormat(rawValue: try r.u8())) }
        return out
    }

    private static func formats(_ r: inout ByteReader) throws(PickerError) -> [ImageFormat] {
        let n = try r.count()
        var out: [ImageFormat] = []
        // Formats this build does not know are kept, so a re-encoded reply is the one received.
        for _ in 0..<n { out.append(ImageFormat(rawValue: try r.u8())) }
        return out
    }

    static func encodeLibraryInfo(_ l: LibraryInfo, into w: inout ByteWriter) {
        w.string(l.root)
        w.count(l.albumCount)
        w.count(l.photoCount)
        w.u8(l.scanState.rawValue)
        w.i64(l.scannedAt)
        w.count(l.skippedCount)
    }

    static func decodeLibraryInfo(_ r: inout ByteReader) throws(PickerError) -> LibraryInfo {
        let root = try r.string()
        let albums = Int(try r.u32())
        let photos = Int(try r.u32())
        let state = LibraryInfo.ScanState(rawValue: try r.u8())  // a newer server's state is kept
        return LibraryInfo(root: root, albumCount: albums, photoCount: photos, scanState: state,
                           scannedAt: try r.i64(), skippedCount: Int(try r.u32()))
    }

    static func encodeSession(_ s: SessionState, into w: inout ByteWriter) {
        w.string(s.name)
        w.string(s.title)
        w.count(s.width)
        w.count(s.height ?? 0)
        w.u16(UInt16(clamping: s.maxSelection))
        w.u16(UInt16(clamping: s.selectionCount))
        w.string(s.album ?? "")
        w.count(s.albumIndex ?? 0)
        w.string(s.photo ?? "")
        w.count(s.photoIndex ?? 0)
        w.count(s.photoCount)
        w.string(s.message)
    }

    static func decodeSession(_ r: inout ByteReader) throws(PickerError) -> SessionState {
        let name = try r.string()
        let title = try r.string()
        let width = Int(try r.u32())
        let height = Int(try r.u32())
        let maxSel = Int(try r.u16())
        let selCount = Int(try r.u16())
        let album = try r.string()
        let albumIndex = Int(try r.u32())
        let photo = try r.string()
        let photoIndex = Int(try r.u32())
        let photoCount = Int(try r.u32())
        let message = try r.string()
        return SessionState(name: name, title: title, width: width, height: height == 0 ? nil : height,
                            maxSelection: maxSel, selectionCount: selCount,
                            album: album.isEmpty ? nil : album, albumIndex: albumIndex == 0 ? nil : albumIndex,
                            photo: photo.isEmpty ? nil : photo, photoIndex: photoIndex == 0 ? nil : photoIndex,
                            photoCount: photoCount, message: message)
    }
}
