/// Random access to a RAW file's bytes, for the container walks (`TIFFWalk`, `CR3Boxes`):
/// the header reader serves them from the file (`HeaderBytes`, by `pread`), the decoder from memory.
/// Every read is checked against `size`; a read that is not wholly inside gives nil.
protocol RAWByteSource {
    /// The file's length.
    var size: Int { get }
    /// `count` bytes at `offset`, or nil when they are not all inside the file.
    mutating func bytes(at offset: Int, count: Int) -> [UInt8]?
}

extension HeaderBytes: RAWByteSource {}

/// A whole file (or its first bytes) in memory.
struct InMemoryBytes: RAWByteSource {
    let data: [UInt8]
    var size: Int { data.count }

    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard count >= 0, offset >= 0, offset <= data.count - count else { return nil }
        return Array(data[offset..<(offset + count)])
    }
}

extension RAWByteSource {
    /// True when `count` bytes at `offset` lie inside the file (overflow-safe).
    func contains(offset: Int, count: Int) -> Bool {
        count >= 0 && offset >= 0 && offset <= size - count
    }

    mutating func u16(at offset: Int, bigEndian: Bool) -> Int? {
        guard let b = bytes(at: offset, count: 2) else { return nil }
        return bigEndian ? Int(b[0]) << 8 | Int(b[1]) : Int(b[1]) << 8 | Int(b[0])
    }

    mutating func u32(at offset: Int, bigEndian: Bool) -> Int? {
        guard let b = bytes(at: offset, count: 4) else { return nil }
        let v = bigEndian ? b : b.reversed()
        return Int(v[0]) << 24 | Int(v[1]) << 16 | Int(v[2]) << 8 | Int(v[3])
    }

    mutating func u64be(at offset: Int) -> UInt64? {
        guard let b = bytes(at: offset, count: 8) else { return nil }
        return b.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
