/// Bounds that keep one client from starving the rest.
public struct ServerLimits: Sendable {
    /// Connections beyond this are refused with `too_busy`.
    public var maxConnections: Int = 256
    /// A connection with this many unanswered requests is not read from until some finish.
    public var maxInFlightPerConnection: Int = 32
    /// A connection with this much unsent output is not read from until it drains.
    public var maxQueuedOutputBytes: Int = 64 << 20

    public init() {}
}
