/// The numeric fields of an image file that declare sizes, offsets and counts, found by walking
/// its structure: what the structure-aware mutator (`StructureMutator`) rewrites. Byte-level
/// mutation rarely lands a meaningful value in a 32-bit length; these are the fields issue 21's
/// findings lived in (a PNG IHDR of 2147483647², a HEIF grid larger than its `ispe`, an ICC profile
/// whose counts make Little CMS work for seconds).
///
/// Found per format: PNG chunk lengths and IHDR width/height; JPEG segment lengths, SOF size and
/// components, APP2 ICC chunk numbers; WebP chunk sizes and the VP8X canvas; HEIF box sizes, `ispe`
/// width/height, `iref` references, `iloc`/`ipma`/`pitm`/`iinf` words and the `idat` grid header;
/// and inside any embedded ICC profile (JPEG APP2, WebP ICCP, or a bare profile) its size, tag count,
/// tag offsets and sizes and the first counts of each tag. PNG iCCP profiles are zlib-compressed and
/// are not walked. Walks are bounded (at most `maxFields` fields, 64 levels of boxes).
public struct StructureFields: Sendable, Equatable {
    /// One field: where it is, how wide, which byte order, and (PNG) the chunk whose CRC covers it.
    public struct Field: Sendable, Equatable {
        public var offset: Int
        public var width: Int
        public var bigEndian: Bool
        /// For a PNG field: the chunk's start (its length field); the mutator fixes that chunk's CRC.
        public var pngChunk: Int?
    }

    public static let maxFields = 4096
    public private(set) var fields: [Field] = []
    private let count: Int

    /// The fields of `bytes` (none for a format not recognised).
    public init(_ bytes: [UInt8]) {
        count = bytes.count
        let b = bytes[...]
        if b.starts(with: [0x89, 0x50, 0x4e, 0x47]) {
            walkPNG(bytes)
        } else if b.starts(with: [0xff, 0xd8]) {
            walkJPEG(bytes)
        } else if b.starts(with: Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual(Array("WEBP".utf8)) {
            add(4, 4, big: false)
            walkRIFF(bytes, from: 12, to: bytes.count)
        } else if bytes.count >= 8, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) {
            walkBoxes(bytes, from: 0, to: bytes.count, depth: 0)
        } else if bytes.count >= 40, bytes[36..<40].elementsEqual(Array("acsp".utf8)) {
            walkICC(bytes, at: 0, length: bytes.count)
        }
    }

    private mutating func add(_ offset: Int, _ width: Int, big: Bool = true, png: Int? = nil) {
        guard fields.count < Self.maxFields, offset >= 0, offset + width <= count else { return }
        fields.append(Field(offset: offset, width: width, bigEndian: big, pngChunk: png))
    }

    // MARK: - PNG

    private mutating func walkPNG(_ b: [UInt8]) {
        var pos = 8
        while pos + 12 <= b.count, fields.count < Self.maxFields {
            let length = Self.u32(b, pos)
            add(pos, 4)
            if b[(pos + 4)..<(pos + 8)].elementsEqual(Array("IHDR".utf8)) {
                add(pos + 8, 4, png: pos)       // width
                add(pos + 12, 4, png: pos)      // height
                add(pos + 16, 1, png: pos)      // bit depth
                add(pos + 17, 1, png: pos)      // colour type
            }
            guard length <= b.count else { return }
            pos += 12 + length
        }
    }

    // MARK: - JPEG

    private mutating func walkJPEG(_ b: [UInt8]) {
        var pos = 2
        while pos + 4 <= b.count, fields.count < Self.maxFields {
            guard b[pos] == 0xff else { pos += 1; continue }
            let marker = b[pos + 1]
            if marker == 0xff { pos += 1; continue }
            if marker == 0xd8 || marker == 0x01 || (0xd0...0xd7).contains(marker) { pos += 2; continue }
            if marker == 0xd9 { return }
            let length = Int(b[pos + 2]) << 8 | Int(b[pos + 3])
            add(pos + 2, 2)
            let body = pos + 4
            if [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf].contains(marker) {
                add(body + 1, 2)                // height
                add(body + 3, 2)                // width
                add(body + 5, 1)                // components
                for c in 0..<min(4, Int(b.count > body + 5 ? b[body + 5] : 0)) { add(body + 7 + 3 * c, 1) }  // sampling
            } else if marker == 0xe2, body + 14 <= b.count, b[body..<(body + 12)].elementsEqual(Array("ICC_PROFILE".utf8) + [0]) {
                add(body + 12, 1)               // chunk number
                add(body + 13, 1)               // chunk count
                walkICC(b, at: body + 14, length: max(0, length - 16))
            }
            if marker == 0xda { return }        // entropy-coded data follows
            pos += 2 + max(2, length)
        }
    }

    // MARK: - WebP (RIFF, little-endian)

    private mutating func walkRIFF(_ b: [UInt8], from start: Int, to end: Int) {
        var pos = start
        while pos + 8 <= end, fields.count < Self.maxFields {
            let size = Self.u32le(b, pos + 4)
            add(pos + 4, 4, big: false)
            let fourCC = String(decoding: b[pos..<(pos + 4)], as: UTF8.self)
            let body = pos + 8
            switch fourCC {
            case "VP8X":
                add(body, 1)                    // flags
                add(body + 4, 3, big: false)    // canvas width - 1
                add(body + 7, 3, big: false)    // canvas height - 1
            case "ICCP":
                walkICC(b, at: body, length: min(size, end - body))
            case "ANMF":
                add(body, 3, big: false); add(body + 3, 3, big: false)      // frame x, y
                add(body + 6, 3, big: false); add(body + 9, 3, big: false)  // frame width - 1, height - 1
                walkRIFF(b, from: body + 16, to: min(end, body + size))
            case "VP8 ":
                add(body + 6, 2, big: false); add(body + 8, 2, big: false)  // key frame width, height (14 bits + scale)
            default: break
            }
            guard size <= end else { return }
            pos = body + size + (size & 1)
        }
    }

    // MARK: - HEIF (ISO base media boxes)

    private static let containerBoxes: Set<String> = ["moov", "trak", "mdia", "minf", "dinf", "stbl", "iprp", "ipco", "meco"]
    private static let wordBoxes: Set<String> = ["iloc", "ipma", "pitm", "iinf", "infe", "ispe", "pixi", "irot", "clap"]

    private mutating func walkBoxes(_ b: [UInt8], from start: Int, to end: Int, depth: Int) {
        var pos = start
        while pos + 8 <= end, depth < 64, fields.count < Self.maxFields {
            var size = Self.u32(b, pos)
            add(pos, 4)
            let type = String(decoding: b[(pos + 4)..<(pos + 8)], as: UTF8.self)
            var header = 8
            if size == 1, pos + 16 <= end {
                add(pos + 8, 8)
                size = Int(min(UInt64(Int.max), UInt64(Self.u32(b, pos + 8)) << 32 | UInt64(Self.u32(b, pos + 12))))
                header = 16
            } else if size == 0 {
                size = end - pos
            }
            guard size >= header, size <= end - pos else { return }
            let body = pos + header, stop = pos + size
            if type == "meta" {
                walkBoxes(b, from: body + 4, to: stop, depth: depth + 1)
            } else if type == "iref" {
                walkReferences(b, from: body + 4, to: stop, wide: b[body] != 0)
            } else if type == "idat" {
                // A grid item's data: version, flags, rows - 1, columns - 1, output width and height.
                for i in 0..<4 { add(body + i, 1) }
                add(body + 4, 2); add(body + 6, 2); add(body + 4, 4); add(body + 8, 4)
            } else if type == "colr", stop - body > 4, b[body..<(body + 4)].elementsEqual(Array("prof".utf8)) {
                walkICC(b, at: body + 4, length: stop - body - 4)
            } else if Self.containerBoxes.contains(type) {
                walkBoxes(b, from: body, to: stop, depth: depth + 1)
            } else if Self.wordBoxes.contains(type) {
                var word = body
                while word + 2 <= min(stop, body + 512) { add(word, 2); word += 2 }
                if type == "ispe" { add(body + 4, 4); add(body + 8, 4) }
            }
            pos = stop
        }
    }

    /// `iref` children: type, from-item, reference count, to-items (16- or 32-bit ids).
    private mutating func walkReferences(_ b: [UInt8], from start: Int, to end: Int, wide: Bool) {
        let id = wide ? 4 : 2
        var pos = start
        while pos + 8 + 2 * id <= end, fields.count < Self.maxFields {
            let size = Self.u32(b, pos)
            add(pos, 4)
            add(pos + 8, id)                    // from item
            add(pos + 8 + id, 2)                // reference count
            for k in 0..<min(8, (max(0, size - 10 - id)) / id) { add(pos + 10 + id + k * id, id) }
            guard size >= 8, size <= end - pos else { return }
            pos += size
        }
    }

    // MARK: - ICC profiles

    /// An ICC profile at `base`: its size, tag count, each tag's offset and size, and the words
    /// just inside each tag (curve entry counts, element counts of mpet/mAB/mBA, CLUT grid points).
    private mutating func walkICC(_ b: [UInt8], at base: Int, length: Int) {
        guard length >= 132, base + 132 <= b.count else { return }
        add(base, 4)                            // profile size
        add(base + 128, 4)                      // tag count
        let tags = min(Self.u32(b, base + 128), 64)
        for t in 0..<tags {
            let entry = base + 132 + 12 * t
            guard entry + 12 <= b.count else { return }
            add(entry + 4, 4); add(entry + 8, 4)    // offset, size
            let tag = base + Self.u32(b, entry + 4)
            guard tag >= base, tag < base + length else { continue }
            add(tag + 8, 4); add(tag + 8, 2); add(tag + 10, 2); add(tag + 12, 4)
            for g in 0..<4 { add(tag + 20 + g, 1) }    // a CLUT's grid points, when the tag holds one
        }
    }

    static func u32(_ b: [UInt8], _ at: Int) -> Int {
        guard at >= 0, at + 4 <= b.count else { return 0 }
        return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    static func u32le(_ b: [UInt8], _ at: Int) -> Int {
        guard at >= 0, at + 4 <= b.count else { return 0 }
        return Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
    }
}
