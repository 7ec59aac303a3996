#if canImport(Glibc)
import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC: for durations and deadlines, never wall time.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
