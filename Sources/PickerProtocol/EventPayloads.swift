/// What a client wants to hear about. Wire: `session:string` (empty = no session), `flags:u8` (bit 0 library).
/// A new subscribe on a connection replaces its previous one; an empty one ends all events.
public struct Subscription: Sendable, Equatable {
    public var session: String?
    public var library: Bool
    public init(session: String?, library: Bool) {
        self.session = session
        self.library = library
    }

    func encode(into w: inout ByteWriter) {
        w.string(session ?? "")
        w.u8(library ? 1 : 0)
    }

    /// Unknown flag bits are ignored.
    static func decode(from r: inout ByteReader) throws(PickerError) -> Subscription {
        let s = try r.string()
        let flags = try r.u8()
        return Subscription(session: s.isEmpty ? nil : s, library: flags & 1 != 0)
    }
}

/// What changed in a session. Wire: u8. A struct, not an enum, so a value a newer server sends
/// travels through (named `change-N`) instead of failing the event's decoding.
public struct SessionChange: RawRepresentable, Hashable, Sendable, CaseIterable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let album = SessionChange(rawValue: 1)
    public static let photo = SessionChange(rawValue: 2)
    public static let selection = SessionChange(rawValue: 3)
    public static let paneSize = SessionChange(rawValue: 4)
    public static let closed = SessionChange(rawValue: 5)
    public static let created = SessionChange(rawValue: 6)
    /// A client finished the session: the user accepted its picks (`sessionFinish`).
    public static let accepted = SessionChange(rawValue: 7)
    /// A client finished the session: the user cancelled (`sessionFinish`).
    public static let cancelled = SessionChange(rawValue: 8)
    /// One of the session's choices took another value (`setChoice`); read them with `choices`.
    public static let choice = SessionChange(rawValue: 9)

    /// The values this version knows.
    public static let allCases: [SessionChange] = [.album, .photo, .selection, .paneSize, .closed, .created, .accepted, .cancelled, .choice]

    public var name: String {
        switch self {
        case .album: return "album"
        case .photo: return "photo"
        case .selection: return "selection"
        case .paneSize: return "pane_size"
        case .closed: return "closed"
        case .created: return "created"
        case .accepted: return "accepted"
        case .cancelled: return "cancelled"
        case .choice: return "choice"
        default: return "change-\(rawValue)"
        }
    }
}

/// A server-initiated notice. It travels in an event frame (type ≥ 0x80) whose request id
/// is the id of the `subscribe` request that asked for it.
public enum Event: Sendable, Equatable {
    /// A session changed; `state` is the session after the change (for `.closed`, its last state).
    case session(SessionChange, SessionState)
    /// The library was rescanned and its albums or photos changed (or a scan started or finished).
    case library(LibraryInfo)
    /// Which photos a rescan added, removed and changed (sent with `library`, after it).
    case libraryChanges(LibraryChanges)
    /// How far the running scan has got (about 4 a second while a scan runs, and once when it ends).
    case scanProgress(ScanProgress)
    /// An event type this decoder does not know (from a newer server): kept, so a client can skip it.
    case unknown(type: UInt8, payload: [UInt8])

    public var messageType: MessageType? {
        switch self {
        case .session: return .sessionEvent
        case .library: return .libraryEvent
        case .libraryChanges: return .libraryChangesEvent
        case .scanProgress: return .scanProgressEvent
        case .unknown: return nil
        }
    }

    public func frame(subscriptionID: UInt32) -> Frame {
        var w = ByteWriter()
        switch self {
        case let .session(change, state):
            w.u8(change.rawValue)
            state.encode(into: &w)
        case .library(let info):
            info.encode(into: &w)
        case .libraryChanges(let changes):
            changes.encode(into: &w)
        case .scanProgress(let progress):
            progress.encode(into: &w)
        case let .unknown(type, payload):
            return Frame(type: type, requestID: subscriptionID, payload: payload)
        }
        return Frame(type: messageType?.rawValue ?? 0x80, requestID: subscriptionID, payload: w.bytes)
    }

    /// Decodes an event frame. An event type this decoder does not know (≥ 0x80) is kept as `.unknown`;
    /// a frame below 0x80 throws `.unknownMessageType` (it is not an event).
    public init(frame: Frame) throws(PickerError) {
        var r = ByteReader(frame.payload)
        switch MessageType(rawValue: frame.type) {
        case .sessionEvent?:
            let change = SessionChange(rawValue: try r.u8())  // unknown values are kept (a newer server)
            self = .session(change, try SessionState.decode(from: &r))
        case .libraryEvent?:
            self = .library(try LibraryInfo.decode(from: &r))
        case .libraryChangesEvent?:
            self = .libraryChanges(try LibraryChanges.decode(from: &r))
        case .scanProgressEvent?:
            self = .scanProgress(try ScanProgress.decode(from: &r))
        default:
            guard frame.isEvent else { throw PickerError(.unknownMessageType, "not an event type: 0x\(hex(frame.type))") }
            self = .unknown(type: frame.type, payload: frame.payload)
            return
        }
        try r.expectEnd()
    }
}

/// Which photos one rescan added, removed and changed, as paths relative to the library root.
/// Wire: three lists, each `count:u32` then that many strings: added, removed, changed.
public struct LibraryChanges: Sendable, Equatable {
    public var added: [String]
    public var removed: [String]
    public var changed: [String]
    public init(added: [String] = [], removed: [String] = [], changed: [String] = []) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    func encode(into w: inout ByteWriter) {
        for list in [added, removed, changed] {
            w.u32(UInt32(list.count))
            for path in list { w.string(path) }
        }
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> LibraryChanges {
        var lists: [[String]] = []
        for _ in 0..<3 {
            let n = try r.count(minElementSize: 4)
            var list: [String] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try r.string()) }
            lists.append(list)
        }
        return LibraryChanges(added: lists[0], removed: lists[1], changed: lists[2])
    }
}
