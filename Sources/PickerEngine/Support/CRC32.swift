/// CRC-32 (ISO 3309, the polynomial PNG and zlib use): PNG chunks' checks and the session
/// journal's records.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC of `bytes[start..<end]`.
    static func of(_ bytes: [UInt8], from start: Int, to end: Int) -> UInt32 {
        finish(update(Self.start(), bytes, from: start, to: end))
    }

    /// The running value before any byte.
    static func start() -> UInt32 { 0xFFFF_FFFF }

    /// The running value `crc` carried over `bytes[start..<end]`.
    static func update(_ crc: UInt32, _ bytes: [UInt8], from start: Int, to end: Int) -> UInt32 {
        var c = crc
        for i in start..<end {
            c = table[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
        }
        return c
    }

    /// The CRC of what the running value `crc` went over.
    static func finish(_ crc: UInt32) -> UInt32 { crc ^ 0xFFFF_FFFF }
}
