/// `withUnsafeBytes` that keeps a typed `SystemError` (the standard library's versions rethrow untyped).
extension Array where Element == UInt8 {
    @inlinable
    public func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws(SystemError) -> R) throws(SystemError) -> R {
        try withUnsafeBytes { raw in Result { () throws(SystemError) in try body(raw) } }.get()
    }

    @inlinable
    public mutating func withMutableRawBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws(SystemError) -> R) throws(SystemError) -> R {
        try withUnsafeMutableBytes { raw in Result { () throws(SystemError) in try body(raw) } }.get()
    }
}
