import PickerProtocol

/// PNG: the IHDR chunk, then chunk headers walked by offset up to the first IDAT looking
/// for eXIf. EXIF stored elsewhere (ImageMagick's "Raw profile type exif" tEXt) is not honoured.
///
/// eXIf after IDAT is ignored: the PNG EXIF extension asks for it before IDAT, browsers read it
/// there, and walking every IDAT header of a large PNG would make library scans slow.
enum PNGHeaderParser {
    static let maxChunks = 1024

    static func parse(_ src: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        guard src.u32be(at: 8) == 13, src.matches("IHDR", at: 12),
              let width = src.u32be(at: 16), let height = src.u32be(at: 20),
              let depth = src.byte(at: 24), let colour = src.byte(at: 25),
              let compression = src.byte(at: 26), let filter = src.byte(at: 27), let interlace = src.byte(at: 28)
        else { throw HeaderParseError("missing or truncated IHDR chunk") }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw HeaderParseError("IHDR declares an invalid size \(width)x\(height)")
        }
        let validDepths: [UInt8]
        switch colour {
        case 0: validDepths = [1, 2, 4, 8, 16]
        case 3: validDepths = [1, 2, 4, 8]
        case 2, 4, 6: validDepths = [8, 16]
        default: throw HeaderParseError("invalid colour type \(colour)")
        }
        guard validDepths.contains(depth) else {
            throw HeaderParseError("invalid bit depth \(depth) for colour type \(colour)")
        }
        guard compression == 0, filter == 0, interlace <= 1 else {
            throw HeaderParseError("invalid compression, filter or interlace method")
        }

        var exif: ExifInfo?
        var pos = 8 + 8 + 13 + 4
        for _ in 0..<maxChunks {
            guard let length = src.u32be(at: pos), length <= 0x7FFF_FFFF,
                  let type = src.bytes(at: pos + 4, count: 4) else { break }
            if type == Array("IDAT".utf8) || type == Array("IEND".utf8) { break }
            if type == Array("eXIf".utf8) {
                if length <= ImageHeaderReader.maxExifBytes, let payload = src.bytes(at: pos + 8, count: length) {
                    exif = ExifReader.parse(payload)
                }
                break
            }
            pos += 12 + length
        }
        return ImageHeader(format: .png, storedWidth: width, storedHeight: height,
                           orientation: exif?.orientation ?? .up, dateTimeOriginal: exif?.dateTimeOriginal)
    }
}
