/// What the daemon decides about one request, worked out once from its declaration where the
/// frame is decoded, and carried with the request from then on: where it runs, which session's
/// line it joins, whether it is image work, and whether its reply waits for durability.
/// (The render key is the engine's part of the plan: `PreparedRequest`.)
public struct RequestPlan: Sendable, Equatable {
    public let schedule: RequestSchedule
    /// The session whose requests it runs in order with (nil: none).
    public let session: String?
    /// The reply waits until the session changes made before it are on disk.
    public let needsDurability: Bool

    public init(_ request: Request) {
        let declaration = request.declaration
        schedule = declaration.schedule
        session = request.sessionName
        needsDurability = declaration.changesSession
    }

    /// Decodes pictures: a newer one on the same session supersedes a waiting older one.
    public var isImageWork: Bool { schedule == .image }
}
