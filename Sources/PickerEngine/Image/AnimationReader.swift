import PickerProtocol

/// How many frames an animated picture has and how long one pass plays: GIF (its image
/// descriptors, the graphic control extensions' delays), WebP (its `ANMF` chunks' durations) and
/// APNG (`acTL`'s frame count, the `fcTL` delays). pickerd shows the first frame (issue 27 #3);
/// `photoInfo` says what else is there. Walks block and chunk headers by their lengths through a
/// bounds-checked byte source (no pixel data is read or decoded): a file that breaks off or lies
/// gives what was counted before the break. nil for a still picture, JPEG XL and other formats.
enum AnimationReader {
    struct Animation: Equatable, Sendable {
        var frames: Int
        /// One pass, in milliseconds (GIF and APNG delays are 1/100 s and fractions).
        var milliseconds: Int
    }

    /// Far more frames than any real animation; the walk stops counting there.
    static let maxFrames = 1 << 20

    static func read<S: RAWByteSource>(_ source: inout S, format: PhotoFormat) -> Animation? {
        let found: Animation?
        switch format {
        case .gif: found = gif(&source)
        case .webp: found = webp(&source)
        case .png: found = apng(&source)
        default: found = nil
        }
        return found.flatMap { $0.frames > 1 ? $0 : nil }
    }

    // MARK: GIF

    private static func gif<S: RAWByteSource>(_ s: inout S) -> Animation? {
        guard let head = s.bytes(at: 0, count: 13), head.starts(with: Array("GIF8".utf8)) else { return nil }
        var offset = 13 + colourTableSize(head[10])
        var result = Animation(frames: 0, milliseconds: 0)
        var delay = 0
        while result.frames < maxFrames, let introducer = s.bytes(at: offset, count: 1)?.first {
            switch introducer {
            case 0x21:  // extension: label, then sub-blocks
                guard let label = s.bytes(at: offset + 1, count: 1)?.first else { return result }
                if label == 0xF9, let gce = s.bytes(at: offset + 2, count: 5), gce[0] == 4 {
                    delay = Int(gce[2]) | Int(gce[3]) << 8
                }
                guard let end = skipSubBlocks(&s, from: offset + 2) else { return result }
                offset = end
            case 0x2C:  // image descriptor, its colour table, the LZW code size, then sub-blocks
                guard let descriptor = s.bytes(at: offset, count: 10),
                      let end = skipSubBlocks(&s, from: offset + 10 + colourTableSize(descriptor[9]) + 1) else { return result }
                result.frames += 1
                result.milliseconds += delay * 10
                delay = 0
                offset = end
            default:  // 0x3B, the trailer, or a break in the file
                return result
            }
        }
        return result
    }

    /// The bytes of a colour table a packed field announces (bit 7: present; bits 0–2: size).
    private static func colourTableSize(_ packed: UInt8) -> Int {
        packed & 0x80 == 0 ? 0 : 3 << (Int(packed & 7) + 1)
    }

    /// The offset after the sub-blocks starting at `offset` (each a length byte and that many bytes,
    /// ended by a zero length); nil when the file ends first.
    private static func skipSubBlocks<S: RAWByteSource>(_ s: inout S, from offset: Int) -> Int? {
        var at = offset
        while let size = s.bytes(at: at, count: 1)?.first {
            if size == 0 { return at + 1 }
            at += 1 + Int(size)
        }
        return nil
    }

    // MARK: WebP

    private static func webp<S: RAWByteSource>(_ s: inout S) -> Animation? {
        guard let head = s.bytes(at: 0, count: 12), head.starts(with: Array("RIFF".utf8)),
              Array(head[8..<12]) == Array("WEBP".utf8) else { return nil }
        var result = Animation(frames: 0, milliseconds: 0)
        var offset = 12
        while result.frames < maxFrames, let chunk = s.bytes(at: offset, count: 8) {
            let size = Int(littleEndian(chunk, 4, count: 4))
            if Array(chunk[0..<4]) == Array("ANMF".utf8) {
                guard let frame = s.bytes(at: offset + 8, count: 16) else { return result }
                result.frames += 1
                result.milliseconds += Int(littleEndian(frame, 12, count: 3))
            }
            offset += 8 + size + (size & 1)
        }
        return result
    }

    // MARK: APNG

    private static func apng<S: RAWByteSource>(_ s: inout S) -> Animation? {
        guard let signature = s.bytes(at: 0, count: 8), signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        var declared: Int?
        var result = Animation(frames: 0, milliseconds: 0)
        var offset = 8
        while result.frames < maxFrames, let chunk = s.bytes(at: offset, count: 8) {
            let length = Int(bigEndian(chunk, 0, count: 4))
            let type = String(decoding: chunk[4..<8], as: UTF8.self)
            if type == "acTL", let body = s.bytes(at: offset + 8, count: 8) {
                declared = Int(bigEndian(body, 0, count: 4))
            } else if type == "fcTL", let body = s.bytes(at: offset + 8, count: 26) {
                let numerator = Int(bigEndian(body, 20, count: 2)), denominator = Int(bigEndian(body, 22, count: 2))
                result.frames += 1
                result.milliseconds += numerator * 1000 / (denominator == 0 ? 100 : denominator)
            } else if type == "IEND" {
                break
            }
            offset += 12 + length
        }
        guard let declared else { return nil }  // no acTL: a still PNG, whatever else it holds
        result.frames = min(max(result.frames, 1), declared)
        return result
    }

    private static func littleEndian(_ b: [UInt8], _ at: Int, count: Int) -> UInt32 {
        (0..<count).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, count: Int) -> UInt32 {
        (0..<count).reduce(UInt32(0)) { $0 << 8 | UInt32(b[at + $1]) }
    }
}
