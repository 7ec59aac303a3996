/// Where a request runs; the daemon's scheduler maps it to its pool classes.
public enum RequestSchedule: Sendable, Equatable {
    /// Answered at once on the connection's thread, in arrival order (never queued).
    case control
    /// Quick work on the library or a session.
    case interactive
    /// Decodes pictures: a newer one on the same session supersedes a waiting older one.
    case image
}

/// One request message, declared once: its number, the reply that answers it, where it runs,
/// whether it changes session state (and so must be durable before its reply), and its codec,
/// encoder beside decoder. The declarations live in `Requests+*.swift`, one group a file.
public struct RequestDeclaration: Sendable {
    public let type: MessageType
    /// The reply type of a success (every request may also be answered by `error`).
    public let answer: MessageType
    public let schedule: RequestSchedule
    /// The request may change a session (so its reply waits until that change is saved).
    public let changesSession: Bool
    let encode: @Sendable (Request, inout ByteWriter) -> Void
    let decode: @Sendable (inout ByteReader) throws(PickerError) -> Request

    init(_ type: MessageType, answer: MessageType, _ schedule: RequestSchedule, changesSession: Bool = false,
         encode: @escaping @Sendable (Request, inout ByteWriter) -> Void = { _, _ in },
         decode: @escaping @Sendable (inout ByteReader) throws(PickerError) -> Request) {
        self.type = type
        self.answer = answer
        self.schedule = schedule
        self.changesSession = changesSession
        self.encode = encode
        self.decode = decode
    }

    /// Every request of this version.
    public static let all: [RequestDeclaration] = connection + session + browsing + images + details

    /// The declaration of each request type number (nil: not a request).
    static let byType = MessageType.table(all, \.type)
}

extension Request {
    /// This request's declaration.
    public var declaration: RequestDeclaration {
        // Every case's type is declared (RequestDeclarationTests checks the table covers them all).
        RequestDeclaration.byType[Int(messageType.rawValue)] ?? RequestDeclaration.all[0]
    }

    /// The frame for this request with the given id.
    public func frame(id: UInt32) -> Frame {
        var w = ByteWriter()
        declaration.encode(self, &w)
        return Frame(type: messageType.rawValue, requestID: id, payload: w.bytes)
    }

    /// Decodes a request frame. Unknown types, replies and events throw `.unknownMessageType`;
    /// short, invalid or trailing payload bytes throw `.malformedFrame`.
    public init(frame: Frame) throws(PickerError) {
        guard let declaration = RequestDeclaration.byType[Int(frame.type)] else {
            throw PickerError(.unknownMessageType, Request.notARequest(frame.type))
        }
        var r = ByteReader(frame.payload)
        self = try declaration.decode(&r)
        try r.expectEnd()
    }

    private static func notARequest(_ type: UInt8) -> String {
        guard MessageType(rawValue: type) != nil else { return "unknown message type 0x\(hex(type))" }
        return "message type 0x\(hex(type)) is \(type >= 0x80 ? "an event" : "a reply"), not a request"
    }
}

func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
}
