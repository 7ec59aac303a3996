#if canImport(Glibc)
import Glibc
#endif

/// A POSIX errno value. A struct, not an enum, so values we do not name survive.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current errno.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noEntry = Errno(rawValue: ENOENT)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)

    public var description: String {
        guard let s = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: s)
    }
}

/// A failed system call: which call, and why.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Errno
    public init(_ call: String, _ errno: Errno = .current) {
        self.call = call
        self.errno = errno
    }
    public var description: String { "\(call): \(errno)" }
}

/// Runs `body` until it stops failing with EINTR; a -1 result throws a `SystemError` naming `call`.
@inline(__always)
public func retryingInterrupts<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Errno.current
        if e == .interrupted { continue }
        throw SystemError(call, e)
    }
}
