/// How a client finished a session (`sessionFinish`): the user accepted its picks or cancelled.
/// Wire: u8. A struct, not an enum, so a value a newer client sends reaches the server, which
/// refuses it (`invalid_argument`) instead of the frame failing to decode.
public struct SessionOutcome: RawRepresentable, Hashable, Sendable, CaseIterable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let accepted = SessionOutcome(rawValue: 1)
    public static let cancelled = SessionOutcome(rawValue: 2)

    public static let allCases: [SessionOutcome] = [.accepted, .cancelled]

    public var name: String {
        switch self {
        case .accepted: return "accepted"
        case .cancelled: return "cancelled"
        default: return "outcome-\(rawValue)"
        }
    }

    /// The session event that announces it.
    public var change: SessionChange? {
        switch self {
        case .accepted: return .accepted
        case .cancelled: return .cancelled
        default: return nil
        }
    }
}
