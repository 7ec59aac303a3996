/// The boxes of a JPEG XL container (ISO/IEC 18181-2), walked by their headers for the `Exif`
/// box; libjxl is not needed for that, and the codestream is never read.
enum JXLBoxes {
    /// Boxes looked at before giving up (a container holds a handful: signature, ftyp, jxll,
    /// Exif, xml, jumb, jxlc or jxlp parts).
    static let maxBoxes = 64

    /// The TIFF block of the first uncompressed `Exif` box (its 4-byte offset field applied),
    /// or nil: none, too large, damaged, or Brotli-compressed (`brob`, skipped: pickerd does not
    /// link Brotli for a date).
    static func exif(_ source: inout HeaderBytes) -> [UInt8]? {
        var offset = 0
        for _ in 0..<maxBoxes {
            guard let box = header(&source, at: offset) else { return nil }
            if box.type == "Exif" {
                return payload(&source, box)
            }
            guard let end = box.end else { return nil }
            offset = end
        }
        return nil
    }

    struct Box {
        var type: String
        /// Where the contents start and how long they are (nil: to the end of the file).
        var contentStart: Int
        var contentLength: Int?
        var end: Int? { contentLength.map { contentStart + $0 } }
    }

    /// The box header at `offset`: 32-bit size (1: a 64-bit size follows, 0: to the end), type.
    static func header(_ source: inout HeaderBytes, at offset: Int) -> Box? {
        guard let size32 = source.u32be(at: offset), let type = source.bytes(at: offset + 4, count: 4) else { return nil }
        let name = String(decoding: type, as: UTF8.self)
        switch size32 {
        case 0:
            return Box(type: name, contentStart: offset + 8, contentLength: nil)
        case 1:
            guard let hi = source.u32be(at: offset + 8), let lo = source.u32be(at: offset + 12), hi < 1 << 20 else {
                return nil
            }
            let size = hi << 32 | lo
            guard size >= 16 else { return nil }
            return Box(type: name, contentStart: offset + 16, contentLength: size - 16)
        default:
            guard size32 >= 8 else { return nil }
            return Box(type: name, contentStart: offset + 8, contentLength: size32 - 8)
        }
    }

    /// An `Exif` box's contents after its offset field: the TIFF header onwards.
    private static func payload(_ source: inout HeaderBytes, _ box: Box) -> [UInt8]? {
        let length = box.contentLength ?? (source.size - box.contentStart)
        guard length > 4, length <= ImageHeaderReader.maxExifBytes,
              let skip = source.u32be(at: box.contentStart), skip <= length - 4 else { return nil }
        return source.bytes(at: box.contentStart + 4 + skip, count: length - 4 - skip)
    }
}
