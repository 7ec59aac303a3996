#if canImport(Glibc)
import Glibc
#endif

func sysconfCores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

/// Bounds that keep one client from starving the rest.
public struct ServerLimits: Sendable {
    /// Connections beyond this are refused with `too_busy`.
    public var maxConnections: Int = 256
    /// Requests beyond this many unanswered ones on a connection are refused with `too_busy`.
    public var maxInFlightPerConnection: Int = 64
    /// A connection with this much unsent output is not read from until it drains.
    public var maxQueuedOutputBytes: Int = 8 << 20
    /// A frame begun but not finished within this many seconds closes the connection.
    public var partialFrameTimeout: Double = 10
    /// Image decodes running at once: one per core, so cheap requests are never starved of CPU.
    public var maxConcurrentImageWork: Int = max(1, sysconfCores())

    public init() {}
}
