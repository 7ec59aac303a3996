/// Canon CR3 (ISO base media file format, brand `crx `): its metadata sits in a Canon `uuid` box
/// inside `moov` (CMT1 = IFD0 as a TIFF, CMT2 = the EXIF IFD, THMB = a 160x120 JPEG), its
/// 1620x1080 JPEG preview in a top-level `uuid` box holding a PRVW box. Boxes are walked with
/// every size checked against the file (a file cut off inside `mdat` keeps its previews).
enum CR3Boxes {
    static let canonMetadataUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0,
                                             0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
    static let previewUUID: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88,
                                       0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]
    /// Boxes looked at on one level before giving up.
    static let maxBoxes = 256

    /// A box: its type and the range of its payload (after the size/type header).
    struct Box: Equatable {
        let type: String
        let start: Int
        let payload: Range<Int>
    }

    /// The boxes in `range`, stopping at the first that does not fit in it (a file cut off
    /// inside `mdat` ends the walk there, after the boxes before it).
    static func boxes<S: RAWByteSource>(in range: Range<Int>, _ source: inout S) -> [Box] {
        var found: [Box] = []
        var at = range.lowerBound
        while at <= range.upperBound - 8, found.count < maxBoxes {
            guard let size32 = source.u32(at: at, bigEndian: true), let type = source.bytes(at: at + 4, count: 4) else { break }
            var header = 8, size = size32
            if size32 == 1 {
                guard let wide = source.u64be(at: at + 8), wide <= UInt64(Int.max) else { break }
                header = 16
                size = Int(wide)
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            found.append(Box(type: String(decoding: type, as: UTF8.self), start: at, payload: (at + header)..<(at + size)))
            at += size
        }
        return found
    }

    static func layout<S: RAWByteSource>(_ source: inout S) throws(RAWLayoutError) -> RAWLayout {
        let top = boxes(in: 0..<source.size, &source)
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw .damaged("no moov box") }
        guard let canon = boxes(in: moov.payload, &source).first(where: { isUUID($0, canonMetadataUUID, &source) })
        else { throw .damaged("no Canon metadata box") }
        let items = boxes(in: (canon.payload.lowerBound + 16)..<canon.payload.upperBound, &source)
        guard let cmt1 = items.first(where: { $0.type == "CMT1" }),
              let ifd0 = TIFFWalk(&source, base: cmt1.payload.lowerBound), let ifd0Entries = ifd0.directories.first?.entries
        else { throw .damaged("no readable CMT1 (IFD0)") }
        let exif = items.first(where: { $0.type == "CMT2" }).flatMap { TIFFWalk(&source, base: $0.payload.lowerBound) }
        let exifEntries = exif?.directories.first?.entries ?? [:]
        func size(_ walk: TIFFWalk?, _ entries: [Int: TIFFEntry], _ w: Int, _ h: Int) -> PixelSize? {
            guard let walk, let a = walk.int(entries[w], &source), let b = walk.int(entries[h], &source),
                  a > 0, b > 0 else { return nil }
            return PixelSize(width: a, height: b)
        }
        typealias Tag = RAWLayout.Tag
        guard let picture = size(ifd0, ifd0Entries, Tag.width, Tag.height)
                ?? size(exif, exifEntries, Tag.pixelXDimension, Tag.pixelYDimension)
        else { throw .damaged("no picture size in CMT1 or CMT2") }
        var layout = RAWLayout(kind: .cr3, size: picture)
        layout.orientation = Orientation(exifValue: ifd0.int(ifd0Entries[Tag.orientation], &source) ?? 1)
        layout.dateTimeOriginal = exif.flatMap { $0.ascii(exifEntries[Tag.dateTimeOriginal], &source) }
            .flatMap(ExifDateTime.normalized)
        let thumbnails = items.filter { $0.type == "THMB" }
        let previewBoxes = top.filter { isUUID($0, previewUUID, &source) }.flatMap { box in
            boxes(in: (box.payload.lowerBound + 24)..<box.payload.upperBound, &source).filter { $0.type == "PRVW" }
        }
        layout.previews = (thumbnails + previewBoxes).compactMap { jpeg(in: $0, &source) }
            + trackJPEGs(in: moov, &source)
        // LibRaw 0.20 cannot read CR3: the sensor data is never handed to it.
        layout.sensorData = nil
        return layout
    }

    /// The first sample of each `trak` that is a JPEG wholly inside the file: in a complete CR3 the first
    /// track holds the full-size JPEG (5472x3648 for the R6), the others the sensor data. A file cut
    /// off inside `mdat` keeps none of them.
    private static func trackJPEGs<S: RAWByteSource>(in moov: Box, _ source: inout S) -> [RAWPreview] {
        boxes(in: moov.payload, &source).filter { $0.type == "trak" }.compactMap { trak in
            let path = ["mdia", "minf", "stbl"]
            var box: Box? = trak
            for type in path { box = box.flatMap { b in boxes(in: b.payload, &source).first { $0.type == type } } }
            guard let stbl = box else { return nil }
            let tables = boxes(in: stbl.payload, &source)
            guard let stsz = tables.first(where: { $0.type == "stsz" }),
                  let offset = firstChunkOffset(tables, &source) else { return nil }
            // stsz: version and flags, a sample size for all samples (0: a table follows), the count.
            var size = source.u32(at: stsz.payload.lowerBound + 4, bigEndian: true) ?? 0
            if size == 0 { size = source.u32(at: stsz.payload.lowerBound + 12, bigEndian: true) ?? 0 }
            guard size > 2, source.contains(offset: offset, count: size),
                  source.bytes(at: offset, count: 2) == [0xFF, 0xD8] else { return nil }
            return RAWPreview(range: offset..<(offset + size))
        }
    }

    /// The first entry of `co64` (64-bit) or `stco` (32-bit): version and flags, a count, the offsets.
    private static func firstChunkOffset<S: RAWByteSource>(_ tables: [Box], _ source: inout S) -> Int? {
        if let co64 = tables.first(where: { $0.type == "co64" }),
           let wide = source.u64be(at: co64.payload.lowerBound + 8), wide <= UInt64(Int.max) {
            return Int(wide)
        }
        return tables.first(where: { $0.type == "stco" }).flatMap { source.u32(at: $0.payload.lowerBound + 8, bigEndian: true) }
    }

    private static func isUUID<S: RAWByteSource>(_ box: Box, _ uuid: [UInt8], _ source: inout S) -> Bool {
        box.type == "uuid" && source.bytes(at: box.payload.lowerBound, count: 16) == uuid
    }

    /// THMB and PRVW: 16 bytes of header, then the JPEG. THMB: version and flags, width, height,
    /// the JPEG's length (at 8), a word; PRVW: a word, a half-word, width, height, a half-word,
    /// the length (at 12). The length is trusted only within the box.
    private static func jpeg<S: RAWByteSource>(in box: Box, _ source: inout S) -> RAWPreview? {
        let start = box.payload.lowerBound + 16
        let lengthField = box.payload.lowerBound + (box.type == "THMB" ? 8 : 12)
        guard let length = source.u32(at: lengthField, bigEndian: true), length > 2,
              length <= box.payload.upperBound - start,
              source.bytes(at: start, count: 2) == [0xFF, 0xD8] else { return nil }
        return RAWPreview(range: start..<(start + length))
    }
}
