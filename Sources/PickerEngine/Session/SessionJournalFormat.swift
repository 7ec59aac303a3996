import Foundation

/// The bytes of `sessions.journal`: the session changes made since `sessions.json` was last
/// written, one record a write round. All integers little-endian.
///
///     header  (32)  "PKSJ" · version u32 (1) · generation (16 random bytes) · 8 zero bytes
///     record  (16+) payload length u32 · number u32 (1, 2, 3… after the header) · CRC-32 u32 ·
///                   4 zero bytes · payload: JSON {"removed": [names], "sessions": [sessions]}
///
/// The CRC covers the generation, the length, the number and the payload, so a record left from
/// an earlier generation, or torn by a crash, never reads as one of this generation: reading
/// stops at the first record that is not whole, in order and of this generation.
enum SessionJournalFormat {
    static let headerSize = 32
    static let recordHeaderSize = 16
    static let generationSize = 16
    private static let magic = Array("PKSJ".utf8)
    private static let version: UInt32 = 1

    /// One write round's changes: the sessions as they now are, and the names of those removed.
    struct Change: Encodable, Equatable {
        var removed: [String]
        var sessions: [Session]
    }

    /// A record's payload as read back: each session entry decoded alone (see `SavedSessions.Entry`).
    struct ReadChange: Decodable {
        var removed: [String]
        var sessions: [SavedSessions.Entry]
    }

    /// A file's header for `generation`.
    static func header(generation: [UInt8]) -> [UInt8] {
        magic + littleEndian(version) + generation + [UInt8](repeating: 0, count: 8)
    }

    /// The record numbered `number` of `generation` holding `change`.
    static func record(_ change: Change, number: UInt32, generation: [UInt8]) throws -> [UInt8] {
        let payload = Array(try JSONEncoder().encode(change))
        let lengthAndNumber = littleEndian(UInt32(payload.count)) + littleEndian(number)
        var crc = CRC32.update(CRC32.start(), generation, from: 0, to: generation.count)
        crc = CRC32.update(crc, lengthAndNumber, from: 0, to: 8)
        crc = CRC32.finish(CRC32.update(crc, payload, from: 0, to: payload.count))
        return lengthAndNumber + littleEndian(crc) + [0, 0, 0, 0] + payload
    }

    /// What a journal file holds: its generation (nil: not a journal of this version) and the
    /// payloads of its whole records in order.
    struct Contents: Equatable {
        var generation: [UInt8]?
        var payloads: [[UInt8]]
        /// Where the next record goes.
        var end: Int
    }

    /// Reads `bytes` as a journal file: never traps, whatever the bytes.
    static func read(_ bytes: [UInt8]) -> Contents {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic, uint32(bytes, at: 4) == version else {
            return Contents(generation: nil, payloads: [], end: headerSize)
        }
        let generation = Array(bytes[8..<(8 + generationSize)])
        var payloads: [[UInt8]] = []
        var offset = headerSize
        while let payload = payload(in: bytes, at: offset, number: UInt32(payloads.count + 1), generation: generation) {
            payloads.append(payload)
            offset += recordHeaderSize + payload.count
        }
        return Contents(generation: generation, payloads: payloads, end: offset)
    }

    /// The payload of the record at `offset` when it is whole, numbered `number` and of `generation`.
    private static func payload(in bytes: [UInt8], at offset: Int, number: UInt32, generation: [UInt8]) -> [UInt8]? {
        guard offset <= bytes.count - recordHeaderSize else { return nil }
        let length = Int(uint32(bytes, at: offset))
        guard length > 0, length <= bytes.count - offset - recordHeaderSize, uint32(bytes, at: offset + 4) == number else { return nil }
        let start = offset + recordHeaderSize
        var crc = CRC32.update(CRC32.start(), generation, from: 0, to: generation.count)
        crc = CRC32.update(crc, bytes, from: offset, to: offset + 8)
        crc = CRC32.finish(CRC32.update(crc, bytes, from: start, to: start + length))
        guard crc == uint32(bytes, at: offset + 8) else { return nil }
        return Array(bytes[start..<(start + length)])
    }

    /// A payload's change; throws when it is not the JSON of one.
    static func change(_ payload: [UInt8]) throws -> ReadChange {
        try JSONDecoder().decode(ReadChange.self, from: Data(payload))
    }

    static func hex(_ generation: [UInt8]) -> String {
        generation.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// A fresh generation: 128 random bits (the standard library's generator reads `getrandom(2)`).
    static func newGeneration() -> [UInt8] {
        (0..<generationSize).map { _ in UInt8.random(in: 0...255) }
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    private static func uint32(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
}
