import CPickerCodecs

/// A flag a job's owner raises to stop the job: the worker pool makes it the running thread's
/// current flag, so streaming decoders (in C, once per batch of rows) and the grid loop (once per
/// cell) see it without a parameter on every call. Once raised it stays raised.
public final class CancelFlag: @unchecked Sendable {
    // The C flag is an atomic int, safe from any thread; the pointer itself never changes.
    let raw: OpaquePointer?

    public init() {
        raw = pk_cancel_flag_new()
    }

    deinit { pk_cancel_flag_free(raw) }

    public func raise() { pk_cancel_flag_raise(raw) }

    public var isRaised: Bool { pk_cancel_flag_is_raised(raw) != 0 }

    /// Whether the job running on this thread was cancelled.
    public static var currentIsRaised: Bool { pk_cancelled() != 0 }

    /// Runs `body` with `flag` as this thread's current flag, restoring the previous one after.
    public static func with<T, E: Error>(_ flag: CancelFlag?, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = pk_cancel_current()
        pk_cancel_use(flag?.raw)
        defer { pk_cancel_use(previous) }
        return try withExtendedLifetime(flag) { () throws(E) -> T in try body() }
    }
}
