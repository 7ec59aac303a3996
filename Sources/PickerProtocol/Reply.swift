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
    case photoInfo(PhotoDetails)
    case selection(SelectionList)
    case thumbnails(ThumbnailSheet)
    case subscribed(Subscription)
    /// Whether the request was still in flight (it then gets a `cancelled` error).
    case cancelReply(requestID: UInt32, found: Bool)
    /// A session's choices with their values now (`choices`, `setChoice`).
    case choices([SessionChoice])

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
        case .photoInfo: return .photoInfoReply
        case .selection: return .selectionReply
        case .thumbnails: return .thumbnailsReply
        case .subscribed: return .subscribed
        case .cancelReply: return .cancelReply
        case .choices: return .choicesReply
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

    /// The same without the pictures large enough to be spliced into the frame uncopied.
    var estimatedSizeBesidePictures: Int {
        switch self {
        case .image: return 64
        case .thumbnails(let sheet): return sheet.geometry.cells.count * 64 + 64
        default: return 256
        }
    }
}
