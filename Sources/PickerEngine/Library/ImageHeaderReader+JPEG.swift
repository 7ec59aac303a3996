import PickerProtocol

/// JPEG: walks the marker segments (as libjpeg does, skipping fill bytes and stray data
/// between segments) to the first SOFn frame header, taking the EXIF APP1 on the way.
enum JPEGHeaderParser {
    /// Stop looking for a frame header after this many markers or bytes.
    static let maxMarkers = 4096
    static let maxScanBytes = 64 * 1024 * 1024

    static func parse(_ src: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        var pos = 2  // after SOI
        var size: (width: Int, height: Int)?
        var exif: ExifInfo?
        var markers = 0

        func header() -> ImageHeader? {
            guard let size else { return nil }
            return ImageHeader(format: .jpeg, storedWidth: size.width, storedHeight: size.height,
                               orientation: exif?.orientation ?? .up,
                               dateTimeOriginal: exif?.dateTimeOriginal)
        }
        /// A problem before the frame header is an error; after it, the size is what matters.
        func stop(_ reason: String) throws(HeaderParseError) -> ImageHeader {
            if let h = header() { return h }
            throw HeaderParseError(reason)
        }

        while true {
            markers += 1
            if markers > maxMarkers || pos > maxScanBytes {
                return try stop("no frame header (SOF) found")
            }
            // Find the next marker: skip anything that is not 0xFF, then fill bytes.
            guard var b = src.byte(at: pos) else { return try stop("no frame header (SOF) before the end of the file") }
            while b != 0xFF {
                pos += 1
                guard pos <= maxScanBytes, let next = src.byte(at: pos) else {
                    return try stop("no frame header (SOF) before the end of the file")
                }
                b = next
            }
            while b == 0xFF {
                pos += 1
                guard let next = src.byte(at: pos) else {
                    return try stop("no frame header (SOF) before the end of the file")
                }
                b = next
            }
            pos += 1
            let marker = b
            switch marker {
            case 0x00, 0x01, 0xD0...0xD8:
                continue  // stuffed zero in stray data, TEM, RSTn, repeated SOI: no length
            case 0xD9:
                return try stop("the file ends (EOI) before a frame header (SOF)")
            case 0xDA:
                return try stop("image data (SOS) starts before a frame header (SOF)")
            default:
                break
            }
            guard let length = src.u16be(at: pos) else { return try stop("truncated marker segment") }
            guard length >= 2 else {
                // libjpeg skips nothing for a length under 2 and resynchronises on the next marker.
                pos += 2
                continue
            }
            let body = pos + 2
            let bodyLength = length - 2
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if size == nil {
                    guard bodyLength >= 6, let h = src.u16be(at: body + 1), let w = src.u16be(at: body + 3) else {
                        throw HeaderParseError("truncated frame header (SOF)")
                    }
                    guard w > 0, h > 0 else {
                        throw HeaderParseError("frame header declares a zero size (\(w)x\(h))")
                    }
                    size = (w, h)
                }
            case 0xE1 where exif == nil && bodyLength >= 6 && src.matches("Exif\0", at: body):
                // A truncated APP1 still yields what fits in the file.
                let available = max(0, min(bodyLength, src.size - body))
                if let payload = src.bytes(at: body, count: available) {
                    exif = ExifReader.parse(payload)
                }
            default:
                break
            }
            pos = body + bodyLength
            if size != nil, exif != nil, let h = header() { return h }
        }
    }
}
