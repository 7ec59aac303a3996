import PickerProtocol

/// WebP: the size from the first chunk (VP8 key frame, VP8L header or the VP8X canvas);
/// when VP8X announces EXIF, chunk headers are walked by offset to the EXIF chunk, whose
/// payload may be raw TIFF (as the spec says) or start with "Exif\0\0" (as many writers do).
enum WebPHeaderParser {
    static let maxChunks = 4096

    static func parse(_ src: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        guard let fourCC = src.bytes(at: 12, count: 4), src.u32le(at: 16) != nil else {
            throw HeaderParseError("no chunk after the RIFF header")
        }
        switch fourCC {
        case Array("VP8 ".utf8):
            guard let tag = src.u24le(at: 20), src.bytes(at: 23, count: 3) == [0x9D, 0x01, 0x2A],
                  let w = src.u16le(at: 26), let h = src.u16le(at: 28) else {
                throw HeaderParseError("invalid or truncated VP8 frame header")
            }
            guard tag & 1 == 0 else { throw HeaderParseError("VP8 data does not start with a key frame") }
            return ImageHeader(format: .webp, storedWidth: w & 0x3FFF, storedHeight: h & 0x3FFF)
        case Array("VP8L".utf8):
            guard src.byte(at: 20) == 0x2F, let bits = src.u32le(at: 21) else {
                throw HeaderParseError("invalid or truncated VP8L header")
            }
            guard bits >> 29 == 0 else { throw HeaderParseError("unknown VP8L version \(bits >> 29)") }
            return ImageHeader(format: .webp, storedWidth: (bits & 0x3FFF) + 1,
                               storedHeight: ((bits >> 14) & 0x3FFF) + 1)
        case Array("VP8X".utf8):
            guard let flags = src.byte(at: 20), let w = src.u24le(at: 24), let h = src.u24le(at: 27) else {
                throw HeaderParseError("truncated VP8X header")
            }
            var header = ImageHeader(format: .webp, storedWidth: w + 1, storedHeight: h + 1)
            if flags & 0x08 != 0, let exif = findExif(&src) {
                header.orientation = exif.orientation
                header.dateTimeOriginal = exif.dateTimeOriginal
            }
            return header
        default:
            let shown = String(decoding: fourCC.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
            throw HeaderParseError("unknown first chunk '\(shown)'")
        }
    }

    private static func findExif(_ src: inout HeaderBytes) -> ExifInfo? {
        let end = min(src.size, (src.u32le(at: 4) ?? 0) + 8)
        var pos = 12
        for _ in 0..<maxChunks {
            guard pos + 8 <= end, let fourCC = src.bytes(at: pos, count: 4), let length = src.u32le(at: pos + 4) else {
                return nil
            }
            if fourCC == Array("EXIF".utf8) {
                guard length <= ImageHeaderReader.maxExifBytes,
                      let payload = src.bytes(at: pos + 8, count: min(length, end - pos - 8)) else { return nil }
                return ExifReader.parse(payload)
            }
            pos += 8 + length + (length & 1)
        }
        return nil
    }
}
