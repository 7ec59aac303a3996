/// Structure-aware mutation (fuzz target "library"): rewrites one to three of a file's declared
/// sizes, offsets and counts (`StructureFields`) with values that break arithmetic and bounds —
/// 0, 1, one off, doubled, halved, the field's maximum and half of it (2147483647 in a 32-bit
/// field), 65535/65536, 2^24 — and fixes the CRC of a PNG chunk it changed, so libpng sees the
/// lie instead of a checksum error. Deterministic for a seed (the replay test runs fixed seeds).
public enum StructureMutator {
    /// `bytes` with some fields rewritten, or nil when the file has no field this knows.
    public static func mutate(_ bytes: [UInt8], seed: UInt64) -> [UInt8]? {
        let fields = StructureFields(bytes).fields
        guard !fields.isEmpty else { return nil }
        var random = SplitMix(seed)
        var out = bytes
        var chunks: Set<Int> = []
        for _ in 0..<(1 + Int(random.next() % 3)) {
            let field = fields[Int(random.next() % UInt64(fields.count))]
            let old = read(out, field)
            write(&out, field, value: interesting(old, width: field.width, &random))
            if let chunk = field.pngChunk { chunks.insert(chunk) }
        }
        for chunk in chunks { fixPNGCRC(&out, chunk: chunk) }
        return out
    }

    static func interesting(_ old: UInt64, width: Int, _ random: inout SplitMix) -> UInt64 {
        let max: UInt64 = width >= 8 ? .max : (1 << UInt64(8 * width)) - 1
        let choices: [UInt64] = [0, 1, old &- 1, old &+ 1, old &* 2, old / 2, old &* 256, max, max / 2, max / 2 &+ 1,
                                 255, 256, 65535, 65536, 16384, 1 << 24, (1 << 24) - 1, 1 << 31, random.next()]
        return choices[Int(random.next() % UInt64(choices.count))] & max
    }

    static func read(_ b: [UInt8], _ f: StructureFields.Field) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<f.width {
            let byte = UInt64(b[f.bigEndian ? f.offset + i : f.offset + f.width - 1 - i])
            value = value << 8 | byte
        }
        return value
    }

    static func write(_ b: inout [UInt8], _ f: StructureFields.Field, value: UInt64) {
        for i in 0..<f.width {
            let byte = UInt8(truncatingIfNeeded: value >> UInt64(8 * (f.width - 1 - i)))
            b[f.bigEndian ? f.offset + i : f.offset + f.width - 1 - i] = byte
        }
    }

    /// Recomputes the CRC of the PNG chunk starting at `chunk` (when its length still fits the file).
    static func fixPNGCRC(_ b: inout [UInt8], chunk: Int) {
        let length = StructureFields.u32(b, chunk)
        let end = chunk + 8 + length
        guard length <= b.count, end + 4 <= b.count else { return }
        var crc: UInt32 = 0xffff_ffff
        for byte in b[(chunk + 4)..<end] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        crc = ~crc
        for i in 0..<4 { b[end + i] = UInt8(truncatingIfNeeded: crc >> UInt32(24 - 8 * i)) }
    }
}

/// SplitMix64: a small deterministic generator (the mutator's choices follow libFuzzer's seed).
struct SplitMix {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
