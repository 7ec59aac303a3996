/// Stable numeric error codes carried in error replies. Numbers are never reused.
public enum ErrorCode: UInt16, Sendable, CaseIterable, Codable {
    // Protocol level
    case malformedFrame = 1
    case unsupportedVersion = 2
    case frameTooLarge = 3
    case unknownMessageType = 4
    case handshakeRequired = 5
    case invalidArgument = 6
    case tooBusy = 7
    case cancelled = 8
    case permissionDenied = 9

    // Lookup
    case noSuchSession = 10
    case noSuchAlbum = 11
    case noSuchPhoto = 12
    case nothingSelected = 13
    case sessionExists = 14
    case outOfRange = 15
    case selectionFull = 16
    case invalidName = 17

    // Images
    case corruptImage = 20
    case unsupportedImage = 21
    case imageTooLarge = 22
    case ioError = 23

    case `internal` = 99

    /// Short stable identifier, used by `--json` output and docs.
    public var name: String {
        switch self {
        case .malformedFrame: return "malformed_frame"
        case .unsupportedVersion: return "unsupported_version"
        case .frameTooLarge: return "frame_too_large"
        case .unknownMessageType: return "unknown_message_type"
        case .handshakeRequired: return "handshake_required"
        case .invalidArgument: return "invalid_argument"
        case .tooBusy: return "too_busy"
        case .cancelled: return "cancelled"
        case .permissionDenied: return "permission_denied"
        case .noSuchSession: return "no_such_session"
        case .noSuchAlbum: return "no_such_album"
        case .noSuchPhoto: return "no_such_photo"
        case .nothingSelected: return "nothing_selected"
        case .sessionExists: return "session_exists"
        case .outOfRange: return "out_of_range"
        case .selectionFull: return "selection_full"
        case .invalidName: return "invalid_name"
        case .corruptImage: return "corrupt_image"
        case .unsupportedImage: return "unsupported_image"
        case .imageTooLarge: return "image_too_large"
        case .ioError: return "io_error"
        case .internal: return "internal"
        }
    }
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
