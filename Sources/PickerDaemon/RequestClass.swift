import PickerEngine
import PickerProtocol

/// Where each request runs: the one table of scheduling classes, next to the request switch
/// (`PickerService.answer`). Exhaustive on purpose: a new request must be given a class.
enum RequestClass: Equatable {
    /// Answered on the socket thread at once, in arrival order (never queued).
    case control
    /// Run on the pool in a class of work (`WorkClass`).
    case pool(WorkClass)

    init(_ request: Request) {
        switch request {
        case .ping, .subscribe, .cancel, .hello:
            self = .control
        case .libraryInfo, .scanProgress, .sessionNew, .sessionList, .sessionShow, .sessionResize,
             .sessionClose, .albums, .selectAlbum, .photos, .selectPhoto, .stepPhoto, .status, .setSort,
             .photosPage, .toggle, .selection, .clearSelection:
            self = .pool(.interactive)
        case .getImage, .thumbnails, .preview:
            self = .pool(.image)
        }
    }

    /// Requests that decode pictures: a newer one on the same session supersedes a waiting older one.
    var isImageWork: Bool { self == .pool(.image) }
}
