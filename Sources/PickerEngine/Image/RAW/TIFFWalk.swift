/// One entry of a TIFF image file directory (IFD).
struct TIFFEntry: Sendable, Equatable {
    let tag: Int
    let type: Int
    let count: Int
    /// Absolute offset of the entry's 4-byte value field (the value itself, or its offset).
    let field: Int
}

/// One IFD and where the walk found it.
struct TIFFDirectory: Sendable {
    enum Role: Sendable, Equatable {
        case ifd0
        /// The n-th IFD after IFD0 in the next-IFD chain (IFD1 = 1; CR2 keeps its sensor data in 3).
        case chained(Int)
        /// Listed by a SubIFDs tag (0x014A): DNG and NEF keep sensor data and previews there.
        case sub
        /// The EXIF IFD (0x8769).
        case exif
    }

    let role: Role
    let offset: Int
    let entries: [Int: TIFFEntry]
}

/// A bounds-checked walk over the IFDs of a TIFF structure: IFD0 and its next-IFD chain, SubIFDs
/// (two levels) and the EXIF IFD. Every offset and count is checked against the file's size before
/// it is read; loops are cut by remembering visited offsets, and the walk stops at fixed limits,
/// so a hostile file costs at most `maxDirectories` × `maxEntries` entries.
struct TIFFWalk: Sendable {
    static let maxDirectories = 32
    static let maxEntries = 1024
    /// Most values read from one entry (strip/tile offsets of a big sensor stay far below).
    static let maxValues = 65_536
    static let maxSubIFDs = 8

    /// Where the TIFF header starts (0 for TIFF-based RAWs; inside a box for CR3): offsets are from here.
    let base: Int
    let bigEndian: Bool
    /// The TIFF magic number (42; "RO"/"RS" in ORF; 0x55 in RW2).
    let magic: Int
    private(set) var directories: [TIFFDirectory] = []

    /// Walks the TIFF structure starting at `base`, or nil when there is no TIFF header there.
    init?<S: RAWByteSource>(_ source: inout S, base: Int = 0) {
        guard let order = source.bytes(at: base, count: 2), order == [0x49, 0x49] || order == [0x4D, 0x4D] else {
            return nil
        }
        self.base = base
        bigEndian = order[0] == 0x4D
        guard let magic = source.u16(at: base + 2, bigEndian: bigEndian),
              let first = source.u32(at: base + 4, bigEndian: bigEndian) else { return nil }
        self.magic = magic
        walk(&source, from: first)
    }

    private mutating func walk<S: RAWByteSource>(_ source: inout S, from first: Int) {
        var pending: [(offset: Int, role: TIFFDirectory.Role, depth: Int)] = [(base + first, .ifd0, 0)]
        var visited: Set<Int> = []
        while !pending.isEmpty, directories.count < Self.maxDirectories {
            let (offset, role, depth) = pending.removeFirst()
            guard offset > base, visited.insert(offset).inserted,
                  let (entries, next) = readDirectory(&source, at: offset) else { continue }
            let directory = TIFFDirectory(role: role, offset: offset, entries: entries)
            directories.append(directory)
            if let next, next != 0 {
                switch role {
                case .ifd0: pending.append((base + next, .chained(1), depth))
                case .chained(let n): pending.append((base + next, .chained(n + 1), depth))
                case .sub, .exif: break
                }
            }
            if depth < 2, let subs = values(directory.entries[0x014A], &source) {
                pending += subs.prefix(Self.maxSubIFDs).map { (base + $0, .sub, depth + 1) }
            }
            if role == .ifd0, let exif = int(directory.entries[0x8769], &source) {
                pending.append((base + exif, .exif, depth + 1))
            }
        }
    }

    /// The entries of the IFD at `offset` and its next-IFD offset, or nil when it is not wholly inside.
    private func readDirectory<S: RAWByteSource>(_ source: inout S, at offset: Int) -> ([Int: TIFFEntry], Int?)? {
        guard let count = source.u16(at: offset, bigEndian: bigEndian), count > 0, count <= Self.maxEntries,
              let table = source.bytes(at: offset + 2, count: count * 12) else { return nil }
        var entries: [Int: TIFFEntry] = [:]
        for i in 0..<count {
            let at = i * 12
            let tag = read16(table, at), type = read16(table, at + 2), n = read32(table, at + 4)
            if entries[tag] == nil {
                entries[tag] = TIFFEntry(tag: tag, type: type, count: n, field: offset + 2 + at + 8)
            }
        }
        return (entries, source.u32(at: offset + 2 + count * 12, bigEndian: bigEndian))
    }

    private func read16(_ b: [UInt8], _ at: Int) -> Int {
        bigEndian ? Int(b[at]) << 8 | Int(b[at + 1]) : Int(b[at + 1]) << 8 | Int(b[at])
    }

    private func read32(_ b: [UInt8], _ at: Int) -> Int {
        bigEndian
            ? Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
            : Int(b[at + 3]) << 24 | Int(b[at + 2]) << 16 | Int(b[at + 1]) << 8 | Int(b[at])
    }

    /// Bytes one value of a TIFF type takes (0: a type whose values are not read as numbers).
    static func elementSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1   // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: return 2         // SHORT, SSHORT
        case 4, 9, 13: return 4     // LONG, SLONG, IFD
        default: return 0
        }
    }

    /// Where an entry's values lie: the value field itself when they fit in 4 bytes, else the
    /// offset it holds; nil when they are not wholly inside the file.
    func valueRange<S: RAWByteSource>(_ entry: TIFFEntry, _ source: inout S) -> Range<Int>? {
        let size = Self.elementSize(entry.type)
        guard size > 0, entry.count > 0, entry.count <= Int(UInt32.max) else { return nil }
        let (total, overflow) = entry.count.multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        if total <= 4 { return entry.field..<(entry.field + total) }
        guard let offset = source.u32(at: entry.field, bigEndian: bigEndian),
              source.contains(offset: base + offset, count: total) else { return nil }
        return (base + offset)..<(base + offset + total)
    }

    /// An entry's values as integers (BYTE, SHORT, LONG, IFD), at most `maxValues` of them.
    func values<S: RAWByteSource>(_ entry: TIFFEntry?, _ source: inout S) -> [Int]? {
        guard let entry, entry.count <= Self.maxValues, [1, 3, 4, 13].contains(entry.type),
              let range = valueRange(entry, &source),
              let bytes = source.bytes(at: range.lowerBound, count: range.count) else { return nil }
        let size = Self.elementSize(entry.type)
        return stride(from: 0, to: bytes.count, by: size).map { at in
            size == 1 ? Int(bytes[at]) : size == 2 ? read16(bytes, at) : read32(bytes, at)
        }
    }

    /// An entry's first value as an integer.
    func int<S: RAWByteSource>(_ entry: TIFFEntry?, _ source: inout S) -> Int? {
        guard let entry, [1, 3, 4, 13].contains(entry.type), let range = valueRange(entry, &source) else { return nil }
        let size = Self.elementSize(entry.type)
        guard let b = source.bytes(at: range.lowerBound, count: size) else { return nil }
        return size == 1 ? Int(b[0]) : size == 2 ? read16(b, 0) : read32(b, 0)
    }

    /// An ASCII entry's text up to its first NUL (at most 256 bytes).
    func ascii<S: RAWByteSource>(_ entry: TIFFEntry?, _ source: inout S) -> String? {
        guard let entry, entry.type == 2, entry.count <= 256, let range = valueRange(entry, &source),
              let bytes = source.bytes(at: range.lowerBound, count: range.count) else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The bytes an UNDEFINED/BYTE entry points at (an embedded JPEG, RW2's JpgFromRaw), when wholly inside.
    func blobRange<S: RAWByteSource>(_ entry: TIFFEntry?, _ source: inout S) -> Range<Int>? {
        guard let entry, entry.type == 7 || entry.type == 1, entry.count > 4 else { return nil }
        return valueRange(entry, &source)
    }
}
