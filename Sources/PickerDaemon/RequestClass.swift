import PickerEngine
import PickerProtocol

/// Where each request runs, from the schedule its declaration states (`RequestDeclaration`).
enum RequestClass: Equatable {
    /// Answered on the socket thread at once, in arrival order (never queued).
    case control
    /// Run on the pool in a class of work (`WorkClass`).
    case pool(WorkClass)

    init(_ request: Request) {
        switch request.declaration.schedule {
        case .control: self = .control
        case .interactive: self = .pool(.interactive)
        case .image: self = .pool(.image)
        }
    }

    /// Requests that decode pictures: a newer one on the same session supersedes a waiting older one.
    var isImageWork: Bool { self == .pool(.image) }
}
