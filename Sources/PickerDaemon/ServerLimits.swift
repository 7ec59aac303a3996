/// Bounds that keep one client from starving the rest.
public struct ServerLimits: Sendable {
    /// Connections beyond this are refused with `too_busy`.
    public var maxConnections: Int = 256
    /// Requests beyond this many unanswered ones on a connection are refused with `too_busy`.
    public var maxInFlightPerConnection: Int = 64
    /// A connection with this much unsent output is not read from until it drains, and its
    /// image requests wait to start. 256 KiB, not 1 MiB: under `make soak` the 20 clients that never
    /// read held 20 MiB of pongs at 1 MiB each (daemon peak 96.6 MiB; 79.0 and 87.9 at 256 KiB), and a
    /// reading client never meets the bound (one image reply passes it anyway and drains as it reads).
    public var maxQueuedOutputBytes: Int = 256 << 10
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
