/// Bounds that keep one client from starving the rest.
public struct ServerLimits: Sendable {
    /// Connections beyond this are refused with `too_busy`.
    public var maxConnections: Int = 256
    /// Requests beyond this many unanswered ones on a connection are refused with `too_busy`.
    public var maxInFlightPerConnection: Int = 64
    /// A connection with this much unsent output is not read from until it drains, and its
    /// image requests wait to start.
    public var maxQueuedOutputBytes: Int = 1 << 20
    /// Image requests of one connection that run at once; more wait (in order) to start.
    public var maxImageWorkPerConnection: Int = 4
    /// A subscriber with this many bytes of events unsent (beyond what the kernel buffers) is
    /// taken for stalled: its subscription ends and it is told so with `too_busy` (see `Server`).
    public var maxQueuedEventBytes: Int = 256 << 10
    /// A frame begun but not finished within this many seconds closes the connection.
    public var partialFrameTimeout: Double = 10
    /// A connection that has not completed the handshake within this many seconds is closed.
    public var handshakeTimeout: Double = 10
    /// A connection with nothing in flight, nothing unsent and no subscription is closed after
    /// this many seconds without a request; nil (this type's default, for in-process tests) keeps it
    /// open. pickerd sets 60 s (`--idle-timeout`); subscribers (editors following a session) stay.
    public var idleTimeout: Double? = nil

    public init() {}
}
