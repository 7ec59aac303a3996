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

/// What changed in a session. Wire: u8.
public enum SessionChange: UInt8, Sendable, Equatable, CaseIterable {
    case album = 1
    case photo = 2
    case selection = 3
    case paneSize = 4
    case closed = 5
    case created = 6

    public var name: String {
        switch self {
        case .album: return "album"
        case .photo: return "photo"
        case .selection: return "selection"
        case .paneSize: return "pane_size"
        case .closed: return "closed"
        case .created: return "created"
        }
    }
}

/// A server-initiated notice. It travels in an event frame (type ≥ 0x80) whose request id
/// is the id of the `subscribe` request that asked for it.
public enum Event: Sendable, Equatable {
    /// A session changed; `state` is the session after the change (for `.closed`, its last state).
    case session(SessionChange, SessionState)
    /// The library was rescanned and its albums or photos changed.
    case library(LibraryInfo)

    public var messageType: MessageType {
        switch self {
        case .session: return .sessionEvent
        case .library: return .libraryEvent
        }
    }

    public func frame(subscriptionID: UInt32) -> Frame {
        var w = ByteWriter()
        switch self {
        case let .session(change, state):
            w.u8(change.rawValue)
            Reply.encodeSession(state, into: &w)
        case .library(let info):
            Reply.encodeLibraryInfo(info, into: &w)
        }
        return Frame(type: messageType.rawValue, requestID: subscriptionID, payload: w.bytes)
    }

    /// Decodes an event frame. Unknown event types throw `.unknownMessageType` (clients should skip them).
    public init(frame: Frame) throws(PickerError) {
        var r = ByteReader(frame.payload)
        switch MessageType(rawValue: frame.type) {
        case .sessionEvent?:
            let raw = try r.u8()
            guard let change = SessionChange(rawValue: raw) else {
                throw PickerError(.malformedFrame, "unknown session change \(raw)")
            }
            self = .session(change, try Reply.decodeSession(&r))
        case .libraryEvent?:
            self = .library(try Reply.decodeLibraryInfo(&r))
        default:
            throw PickerError(.unknownMessageType, "not an event type: 0x\(hex(frame.type))")
        }
        try r.expectEnd()
    }
}
