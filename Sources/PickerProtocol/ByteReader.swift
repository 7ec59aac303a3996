/// Reads big-endian primitives from a payload. Every read is bounds-checked;
/// running short throws `.malformedFrame`, so a decoder never reads past its frame.
public struct ByteReader: Sendable {
    private var bytes: [UInt8]
    /// Where the next read starts in `bytes` (which loses its front when a large blob is moved out).
    private var offset: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Reads `frame`'s payload, taking it over: a large blob in it is then moved out, not copied.
    public init(taking frame: consuming Frame) {
        var frame = frame
        var payload: [UInt8] = []
        swap(&payload, &frame.payload)
        self.init(payload)
    }

    public var remaining: Int { bytes.count - offset }

    private mutating func take(_ n: Int, _ what: StaticString) throws(PickerError) -> ArraySlice<UInt8> {
        guard n >= 0, remaining >= n else {
            throw PickerError(.malformedFrame, "payload too short reading \(what)")
        }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    public mutating func u8() throws(PickerError) -> UInt8 {
        try take(1, "u8").first ?? 0
    }

    public mutating func bool() throws(PickerError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw PickerError(.malformedFrame, "boolean byte is neither 0 nor 1")
        }
    }

    public mutating func u16() throws(PickerError) -> UInt16 {
        try take(2, "u16").reduce(0) { $0 << 8 | UInt16($1) }
    }

    public mutating func u32() throws(PickerError) -> UInt32 {
        try take(4, "u32").reduce(0) { $0 << 8 | UInt32($1) }
    }

    public mutating func u64() throws(PickerError) -> UInt64 {
        try take(8, "u64").reduce(0) { $0 << 8 | UInt64($1) }
    }

    public mutating func i64() throws(PickerError) -> Int64 { Int64(bitPattern: try u64()) }

    /// A u32 count of bytes, then UTF-8. Invalid UTF-8 is an error, not a replacement.
    public mutating func string() throws(PickerError) -> String {
        let n = Int(try u32())
        let raw = try take(n, "string")
        guard let s = String(validating: raw, as: UTF8.self) else {
            throw PickerError(.malformedFrame, "string is not valid UTF-8")
        }
        return s
    }

    public mutating func blob() throws(PickerError) -> [UInt8] {
        let n = Int(try u32())
        guard n >= Self.movedBlobSize, remaining >= n else { return Array(try take(n, "blob")) }
        return movingOut(n)
    }

    /// Blobs this large (pictures) are moved out of the payload, not copied.
    static let movedBlobSize = 64 << 10

    /// The next `n` bytes as an array of their own, made from the payload's own storage: the bytes
    /// after them are copied aside and the array is cut down in place — which, when this reader
    /// holds the payload's only reference, spares a picture-sized allocation and its page faults.
    private mutating func movingOut(_ n: Int) -> [UInt8] {
        var blob: [UInt8] = []
        swap(&blob, &bytes)
        let end = offset + n
        bytes = Array(blob[end...])
        blob.removeSubrange(end...)
        blob.removeFirst(offset)
        offset = 0
        return blob
    }

    /// A u32 element count that cannot claim more elements than bytes left
    /// (each element is at least `minElementSize` bytes), so a lying count never allocates.
    public mutating func count(minElementSize: Int = 1) throws(PickerError) -> Int {
        let n = Int(try u32())
        guard n <= remaining / max(1, minElementSize) else {
            throw PickerError(.malformedFrame, "list count \(n) exceeds the payload")
        }
        return n
    }

    /// Decoders call this last: a payload with bytes left over is malformed.
    public func expectEnd() throws(PickerError) {
        guard remaining == 0 else {
            throw PickerError(.malformedFrame, "\(remaining) unexpected trailing byte(s) in payload")
        }
    }
}

extension ByteReader {
    /// Gives up the rest of the payload (a `hello` of another version, whose layout is not known).
    public mutating func skipToEnd() { offset = offset + remaining }
}
