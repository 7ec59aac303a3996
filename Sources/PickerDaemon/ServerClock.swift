import PickerSystem

/// Where the server reads the time for its timeouts: the monotonic clock, or a test's own.
public struct ServerClock: Sendable {
    public var now: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Double) {
        self.now = now
    }

    /// Seconds on CLOCK_MONOTONIC.
    public static let monotonic = ServerClock(now: { monotonicNow() })
}
