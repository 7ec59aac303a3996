/// Appends big-endian primitives to a byte buffer. Pure, no I/O.
public struct ByteWriter: Sendable {
    /// What was written. A writer made with `splicingBlobsOf` leaves its large blobs out of
    /// this buffer: read it whole through `frameBytes`.
    public private(set) var bytes: [UInt8]
    /// Blobs kept as their own buffers, each with the offset in `bytes` it follows.
    private var splices: [Splice] = []
    private var splicedCount = 0
    private let spliceThreshold: Int

    private struct Splice: Sendable {
        var offset: Int
        var blob: [UInt8]
    }

    public init(capacity: Int = 64) {
        self.init(capacity: capacity, splicingBlobsOf: .max)
    }

    /// A writer that keeps every blob of `threshold` bytes or more as the caller's own buffer
    /// (no copy); `frameBytes` then gives the whole.
    public init(capacity: Int, splicingBlobsOf threshold: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        spliceThreshold = threshold
    }

    /// Bytes written, spliced blobs included.
    public var count: Int { bytes.count + splicedCount }

    /// Everything written, in order, as buffers (spliced blobs are not copied).
    public var frameBytes: FrameBytes {
        var parts: [[UInt8]] = []
        var start = 0
        for splice in splices {
            parts.append(Array(bytes[start..<splice.offset]))
            parts.append(splice.blob)
            start = splice.offset
        }
        parts.append(start == 0 ? bytes : Array(bytes[start...]))
        return FrameBytes(parts: parts)
    }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    public mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    public mutating func u32(_ v: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift)))
        }
    }

    public mutating func u64(_ v: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
        }
    }

    public mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }

    /// A string: u32 byte count, then UTF-8 bytes.
    public mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(clamping: utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A blob: u32 byte count, then the bytes.
    public mutating func blob(_ b: [UInt8]) {
        u32(UInt32(clamping: b.count))
        if b.count >= spliceThreshold {
            splices.append(Splice(offset: bytes.count, blob: b))
            splicedCount += b.count
        } else {
            bytes.append(contentsOf: b)
        }
    }

    /// Overwrites the u32 at `offset` (a length known only once what follows is written); an
    /// offset past a spliced blob is not supported.
    public mutating func setU32(_ v: UInt32, at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return }
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: v >> UInt32(24 - 8 * i)) }
    }

    /// Clamps a non-negative Int into u32 for the wire.
    public mutating func count(_ n: Int) { u32(UInt32(clamping: max(0, n))) }
}
