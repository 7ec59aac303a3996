/// Stable numeric error codes carried in error replies. Numbers are never reused.
///
/// A struct, not an enum: a code a newer server adds keeps its number through decode and re-encode;
/// a client treats it like `internal` (its `name` reads `internal`, as PROTOCOL.md says).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    // Protocol level
    public static let malformedFrame = ErrorCode(rawValue: 1)
    public static let unsupportedVersion = ErrorCode(rawValue: 2)
    public static let frameTooLarge = ErrorCode(rawValue: 3)
    public static let unknownMessageType = ErrorCode(rawValue: 4)
    public static let handshakeRequired = ErrorCode(rawValue: 5)
    public static let invalidArgument = ErrorCode(rawValue: 6)
    public static let tooBusy = ErrorCode(rawValue: 7)
    public static let cancelled = ErrorCode(rawValue: 8)
    public static let permissionDenied = ErrorCode(rawValue: 9)

    // Lookup
    public static let noSuchSession = ErrorCode(rawValue: 10)
    public static let noSuchAlbum = ErrorCode(rawValue: 11)
    public static let noSuchPhoto = ErrorCode(rawValue: 12)
    public static let nothingSelected = ErrorCode(rawValue: 13)
    public static let sessionExists = ErrorCode(rawValue: 14)
    public static let outOfRange = ErrorCode(rawValue: 15)
    public static let selectionFull = ErrorCode(rawValue: 16)
    public static let invalidName = ErrorCode(rawValue: 17)
    public static let noSuchChoice = ErrorCode(rawValue: 18)

    // Images
    public static let corruptImage = ErrorCode(rawValue: 20)
    public static let unsupportedImage = ErrorCode(rawValue: 21)
    public static let imageTooLarge = ErrorCode(rawValue: 22)
    public static let ioError = ErrorCode(rawValue: 23)

    public static let `internal` = ErrorCode(rawValue: 99)

    /// Every code this version knows, with its stable name (the table PROTOCOL.md's is checked against).
    static let names: [(ErrorCode, String)] = [
        (.malformedFrame, "malformed_frame"), (.unsupportedVersion, "unsupported_version"),
        (.frameTooLarge, "frame_too_large"), (.unknownMessageType, "unknown_message_type"),
        (.handshakeRequired, "handshake_required"), (.invalidArgument, "invalid_argument"),
        (.tooBusy, "too_busy"), (.cancelled, "cancelled"), (.permissionDenied, "permission_denied"),
        (.noSuchSession, "no_such_session"), (.noSuchAlbum, "no_such_album"), (.noSuchPhoto, "no_such_photo"),
        (.nothingSelected, "nothing_selected"), (.sessionExists, "session_exists"), (.outOfRange, "out_of_range"),
        (.selectionFull, "selection_full"), (.invalidName, "invalid_name"), (.noSuchChoice, "no_such_choice"),
        (.corruptImage, "corrupt_image"),
        (.unsupportedImage, "unsupported_image"), (.imageTooLarge, "image_too_large"), (.ioError, "io_error"),
        (.internal, "internal"),
    ]

    /// The codes this version knows, in number order.
    public static let allCases: [ErrorCode] = names.map(\.0)

    /// Whether this version knows the code (one a newer server added is not known, and handled like `internal`).
    public var isKnown: Bool { ErrorCode.names.contains { $0.0 == self } }

    /// Short stable identifier, used by `--json` output and docs; `internal` for a code this version does not know.
    public var name: String { ErrorCode.names.first { $0.0 == self }?.1 ?? "internal" }

    public var description: String { isKnown ? name : "error-\(rawValue)" }
}

/// An error meant for a client: a stable code and a human message.
/// The same value travels on the wire as an error reply.
public struct PickerError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
