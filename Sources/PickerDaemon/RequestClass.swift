import PickerEngine
import PickerProtocol

/// Where each request runs, from the schedule its declaration states (`RequestPlan`).
enum RequestClass: Equatable {
    /// Answered on the socket thread at once, in arrival order (never queued).
    case control
    /// Run on the pool in a class of work (`WorkClass`).
    case pool(WorkClass)

    init(_ plan: RequestPlan) {
        switch plan.schedule {
        case .control: self = .control
        case .interactive: self = .pool(.interactive)
        case .image: self = .pool(.image)
        }
    }

    /// The pool class (control requests never reach the pool; they would run as interactive).
    var workClass: WorkClass {
        if case .pool(let k) = self { return k }
        return .interactive
    }
}
