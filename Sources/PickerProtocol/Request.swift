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
    /// One photo's details from the index and its header (nil photo: the session's current one);
    /// `extensions` asks for the reply's entries (`PhotoDetails.Extension`).
    case photoInfo(session: String, photo: Selector?, extensions: ExtensionArea = ExtensionArea())
    case toggle(session: String, Selector)
    case selection(session: String)
    case clearSelection(session: String)
    case thumbnails(ThumbnailRequest)
    case preview(PreviewRequest)
    case subscribe(Subscription)
    /// Cancels this connection's in-flight request with the given id.
    case cancel(requestID: UInt32)
    /// Finishes the session: the user accepted its picks or cancelled (announced as that session change).
    case sessionFinish(session: String, SessionOutcome)
    /// The session's choices (toggles from the host app) with their values now.
    case choices(session: String)
    /// Sets choice `id` to `value` (one of its options' ids; `true`/`false` for a check box).
    case setChoice(session: String, id: String, value: String)

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
        case .photoInfo: return .photoInfo
        case .toggle: return .toggle
        case .selection: return .selection
        case .clearSelection: return .clearSelection
        case .thumbnails: return .thumbnails
        case .preview: return .preview
        case .subscribe: return .subscribe
        case .cancel: return .cancel
        case .sessionFinish: return .sessionFinish
        case .choices: return .choices
        case .setChoice: return .setChoice
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
        case .photoInfo(let s, _, _): return s
        case .toggle(let s, _), .selection(let s), .clearSelection(let s): return s
        case .thumbnails(let r): return r.session
        case .preview(let r): return r.session
        case .subscribe, .cancel: return nil
        case .sessionFinish(let s, _): return s
        case .choices(let s), .setChoice(let s, _, _): return s
        }
    }
}
