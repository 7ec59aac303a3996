/// Everything a client can ask. Each case maps to one request `MessageType`.
public enum Request: Sendable, Equatable {
    case hello(Hello)
    case ping
    case libraryInfo
    case scanProgress
    case sessionNew(NewSession)
    case sessionList
    case sessionShow(name: String)
    case sessionResize(name: String, width: Int, height: Int?)
    case sessionClose(name: String)
    case albums
    case selectAlbum(session: String, Selector)
    case photos(session: String, sort: PhotoSort)
    case selectPhoto(session: String, Selector)
    case stepPhoto(session: String, StepDirection)
    case status(session: String)
    /// Sets the session's photo order (listings, indexes, next/prev and the grid follow it).
    case setSort(session: String, PhotoSort)
    /// One page of the selected album's photos, in the session's order.
    case photosPage(PhotosPageRequest)
    case getImage(ImageRequest)
    case toggle(session: String, Selector)
    case selection(session: String)
    case clearSelection(session: String)
    case thumbnails(ThumbnailRequest)
    case preview(PreviewRequest)
    case subscribe(Subscription)
    /// Cancels this connection's in-flight request with the given id.
    case cancel(requestID: UInt32)

    public var messageType: MessageType {
        switch self {
        case .hello: return .hello
        case .ping: return .ping
        case .libraryInfo: return .libraryInfo
        case .scanProgress: return .scanProgress
        case .sessionNew: return .sessionNew
        case .sessionList: return .sessionList
        case .sessionShow: return .sessionShow
        case .sessionResize: return .sessionResize
        case .sessionClose: return .sessionClose
        case .albums: return .albums
        case .selectAlbum: return .selectAlbum
        case .photos: return .photos
        case .selectPhoto: return .selectPhoto
        case .stepPhoto: return .stepPhoto
        case .status: return .status
        case .setSort: return .setSort
        case .photosPage: return .photosPage
        case .getImage: return .getImage
        case .toggle: return .toggle
        case .selection: return .selection
        case .clearSelection: return .clearSelection
        case .thumbnails: return .thumbnails
        case .preview: return .preview
        case .subscribe: return .subscribe
        case .cancel: return .cancel
        }
    }

    /// The session this request reads or changes, if any (requests on one session run in order).
    public var sessionName: String? {
        switch self {
        case .hello, .ping, .libraryInfo, .scanProgress, .sessionList, .albums: return nil
        case .sessionNew(let n): return n.name
        case .sessionShow(let name), .sessionResize(let name, _, _), .sessionClose(let name): return name
        case .selectAlbum(let s, _), .photos(let s, _), .selectPhoto(let s, _), .stepPhoto(let s, _), .status(let s):
            return s
        case .setSort(let s, _): return s
        case .photosPage(let p): return p.session
        case .getImage(let r): return r.session
        case .toggle(let s, _), .selection(let s), .clearSelection(let s): return s
        case .thumbnails(let r): return r.session
        case .preview(let r): return r.session
        case .subscribe, .cancel: return nil
        }
    }
}

extension Request {
    /// The frame for this request with the given id.
    public func frame(id: UInt32) -> Frame {
        var w = ByteWriter()
        switch self {
        case .hello(let h):
            w.u16(h.version)
            w.string(h.clientName)
        case .ping, .libraryInfo, .scanProgress, .sessionList, .albums:
            break
        case .sessionNew(let n):
            w.string(n.name)
            w.count(n.width)
            w.count(n.height ?? 0)
            w.u16(UInt16(clamping: n.maxSelection ?? 0))
            w.string(n.title ?? "")
        case .sessionShow(let name), .sessionClose(let name), .status(let name), .selection(let name),
             .clearSelection(let name):
            w.string(name)
        case .sessionResize(let name, let width, let height):
            w.string(name)
            w.count(width)
            w.count(height ?? 0)
        case .selectAlbum(let s, let sel), .selectPhoto(let s, let sel), .toggle(let s, let sel):
            w.string(s)
            sel.encode(into: &w)
        case .photos(let s, let sort):
            w.string(s)
            w.u8(sort.rawValue)
        case .stepPhoto(let s, let dir):
            w.string(s)
            w.u8(dir.rawValue)
        case .setSort(let s, let sort):
            w.string(s)
            w.u8(sort.rawValue)
        case .photosPage(let p):
            w.string(p.session)
            w.count(p.offset)
            w.count(p.limit)
            // The flags byte is optional: sent only when set, so older photosPage frames stay as they were.
            if p.markBroken { w.u8(PhotosPageRequest.markBrokenFlag) }
        case .getImage(let r):
            w.string(r.session)
            w.u8(r.format.rawValue)
            w.u8(UInt8(clamping: r.quality ?? 0))
            w.u8((r.noCache ? 1 : 0) | (r.cells == nil ? 0 : TerminalCells.flagBit))
            r.cells?.encode(into: &w)
        case .thumbnails(let r):
            w.string(r.session)
            w.count(r.cellSize ?? 0)
            w.count(r.page ?? 0)
            // Format and cells are sent only when asked for, so PNG requests stay byte for byte what they were.
            let sendsFormat = r.format != .png
            w.u8((r.geometryOnly ? 1 : 0) | (r.cells == nil ? 0 : TerminalCells.flagBit)
                 | (sendsFormat ? ThumbnailRequest.formatFlagBit : 0))
            if sendsFormat { w.u8(r.format.rawValue) }
            r.cells?.encode(into: &w)
        case .subscribe(let s):
            s.encode(into: &w)
        case .cancel(let id):
            w.u32(id)
        case .preview(let r):
            w.string(r.session)
            w.count(r.width)
            w.count(r.height)
            w.u8(r.format.rawValue)
            w.u8(UInt8(clamping: r.quality ?? 0))
            // The flags byte is optional in preview: sent only when cells follow, so older
            // preview frames stay byte for byte what they were.
            if let cells = r.cells {
                w.u8(TerminalCells.flagBit)
                cells.encode(into: &w)
            }
        }
        return Frame(type: messageType.rawValue, requestID: id, payload: w.bytes)
    }

    /// Decodes a request frame. Unknown types throw `.unknownMessageType`;
    /// short, invalid or trailing payload bytes throw `.malformedFrame`.
    public init(frame: Frame) throws(PickerError) {
        guard let type = MessageType(rawValue: frame.type) else {
            throw PickerError(.unknownMessageType, "unknown message type 0x\(hex(frame.type))")
        }
        var r = ByteReader(frame.payload)
        switch type {
        case .hello:
            let version = try r.u16()
            guard version == ProtocolLimits.version else {
                // Only the version's place is fixed across versions; the rest of another
                // version's hello may be laid out differently. Read the name if it parses and
                // ignore the rest, so the server answers unsupported_version, not malformed_frame.
                self = .hello(Hello(version: version, clientName: (try? r.string()) ?? ""))
                return
            }
            self = .hello(Hello(version: version, clientName: try r.string()))
        case .ping: self = .ping
        case .libraryInfo: self = .libraryInfo
        case .scanProgress: self = .scanProgress
        case .sessionList: self = .sessionList
        case .albums: self = .albums
        case .sessionNew:
            let name = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let maxSel = Int(try r.u16())
            let title = try r.string()
            self = .sessionNew(NewSession(name: name, width: width, height: height == 0 ? nil : height,
                                          maxSelection: maxSel == 0 ? nil : maxSel, title: title.isEmpty ? nil : title))
        case .sessionShow: self = .sessionShow(name: try r.string())
        case .sessionClose: self = .sessionClose(name: try r.string())
        case .status: self = .status(session: try r.string())
        case .sessionResize:
            let name = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            self = .sessionResize(name: name, width: width, height: height == 0 ? nil : height)
        case .selectAlbum: self = .selectAlbum(session: try r.string(), try Selector.decode(from: &r))
        case .selectPhoto: self = .selectPhoto(session: try r.string(), try Selector.decode(from: &r))
        case .photos:
            let s = try r.string()
            let raw = try r.u8()
            let sort = PhotoSort(rawValue: raw)
            guard sort.isKnown else { throw PickerError(.malformedFrame, "unknown sort \(raw)") }
            self = .photos(session: s, sort: sort)
        case .setSort:
            let s = try r.string()
            let raw = try r.u8()
            let sort = PhotoSort(rawValue: raw)
            guard sort.isKnown else { throw PickerError(.malformedFrame, "unknown sort \(raw)") }
            self = .setSort(session: s, sort)
        case .photosPage:
            let session = try r.string()
            let offset = Int(try r.u32())
            let limit = Int(try r.u32())
            // Optional trailing flags; bits this version does not know are ignored.
            let flags: UInt8 = r.remaining > 0 ? try r.u8() : 0
            self = .photosPage(PhotosPageRequest(session: session, offset: offset, limit: limit,
                                                 markBroken: flags & PhotosPageRequest.markBrokenFlag != 0))
        case .stepPhoto:
            let s = try r.string()
            let raw = try r.u8()
            guard let dir = StepDirection(rawValue: raw) else { throw PickerError(.malformedFrame, "unknown direction \(raw)") }
            self = .stepPhoto(session: s, dir)
        case .getImage:
            let s = try r.string()
            let raw = try r.u8()
            let format = ImageFormat(rawValue: raw)
            guard format.isKnown else {
                throw PickerError(.invalidArgument, "unknown output format \(raw)")
            }
            let q = Int(try r.u8())
            let flags = try r.u8()
            let cells = flags & TerminalCells.flagBit != 0 ? try TerminalCells.decode(from: &r) : nil
            self = .getImage(ImageRequest(session: s, format: format, quality: q == 0 ? nil : q, noCache: flags & 1 != 0,
                                          cells: cells))
        case .toggle: self = .toggle(session: try r.string(), try Selector.decode(from: &r))
        case .selection: self = .selection(session: try r.string())
        case .clearSelection: self = .clearSelection(session: try r.string())
        case .thumbnails:
            let s = try r.string()
            let size = Int(try r.u32())
            let page = Int(try r.u32())
            let flags = try r.u8()
            var format = ImageFormat.png
            if flags & ThumbnailRequest.formatFlagBit != 0 {
                let raw = try r.u8()
                let asked = ImageFormat(rawValue: raw)
                guard asked.isKnown else {
                    throw PickerError(.invalidArgument, "unknown output format \(raw)")
                }
                format = asked
            }
            let cells = flags & TerminalCells.flagBit != 0 ? try TerminalCells.decode(from: &r) : nil
            self = .thumbnails(ThumbnailRequest(session: s, cellSize: size == 0 ? nil : size, page: page == 0 ? nil : page,
                                                geometryOnly: flags & 1 != 0, format: format, cells: cells))
        case .preview:
            let s = try r.string()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let raw = try r.u8()
            let format = ImageFormat(rawValue: raw)
            guard format.isKnown else {
                throw PickerError(.invalidArgument, "unknown output format \(raw)")
            }
            let q = Int(try r.u8())
            let flags = r.remaining > 0 ? try r.u8() : 0
            let cells = flags & TerminalCells.flagBit != 0 ? try TerminalCells.decode(from: &r) : nil
            self = .preview(PreviewRequest(session: s, width: width, height: height, format: format, quality: q == 0 ? nil : q,
                                           cells: cells))
        case .subscribe:
            self = .subscribe(try Subscription.decode(from: &r))
        case .cancel:
            self = .cancel(requestID: try r.u32())
        case .sessionEvent, .libraryEvent, .libraryChangesEvent, .scanProgressEvent:
            throw PickerError(.unknownMessageType, "message type 0x\(hex(frame.type)) is an event, not a request")
        case .helloReply, .error, .pong, .libraryInfoReply, .scanProgressReply, .sessionState, .sessionListReply, .sessionClosed,
             .albumsReply, .photosReply, .photosPageReply, .image, .selectionReply, .thumbnailsReply, .subscribed, .cancelReply:
            throw PickerError(.unknownMessageType, "message type 0x\(hex(frame.type)) is a reply, not a request")
        }
        try r.expectEnd()
    }
}

func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
}
