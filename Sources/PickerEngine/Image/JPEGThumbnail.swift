import CPickerCodecs
import PickerProtocol

/// The thumbnail a camera or phone stores in a JPEG's EXIF (IFD1, typically 160x120), used for
/// grid cells when it is at least the cell's size and has the picture's aspect ratio (within 1 %:
/// else it is stale, or letterboxed to 4:3). It is stored in the same orientation as the picture.
enum JPEGThumbnail {
    /// Markers walked looking for the EXIF APP1 before giving up.
    static let maxSegments = 32

    /// The embedded thumbnail decoded, when it covers `target` (stored axes) with the aspect of `stored`.
    static func decode(_ data: [UInt8], stored: PixelSize, covering target: PixelSize,
                       maxPixels: Int) -> PixelImage? {
        guard let bytes = thumbnailBytes(data) else { return nil }
        var w: Int32 = 0, h: Int32 = 0
        var message = CodecResult.messageBuffer()
        let status = bytes.withUnsafeBufferPointer { pk_jpeg_read_size($0.baseAddress, $0.count, &w, &h, &message) }
        let size = PixelSize(width: Int(w), height: Int(h))
        guard status == 0, covers(size, target: target, stored: stored) else { return nil }
        let image = try? JPEGDecoder.decode(bytes, maxPixels: maxPixels, photoName: "thumbnail")
        return image.flatMap { covers($0.size, target: target, stored: stored) ? $0 : nil }
    }

    /// At least the target on both axes, and the picture's aspect ratio within 1 %.
    static func covers(_ size: PixelSize, target: PixelSize, stored: PixelSize) -> Bool {
        guard size.width >= target.width, size.height >= target.height, size.height > 0,
              stored.width > 0, stored.height > 0 else { return false }
        let ratio = (Double(size.width) / Double(size.height)) / (Double(stored.width) / Double(stored.height))
        return abs(ratio - 1) <= 0.01
    }

    /// The bytes of the IFD1 JPEG inside the first EXIF APP1 segment, or nil.
    static func thumbnailBytes(_ data: [UInt8]) -> [UInt8]? {
        var pos = 2
        for _ in 0..<maxSegments {
            guard pos + 4 <= data.count, data[pos] == 0xFF else { return nil }
            let marker = data[pos + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data: no APP1 after this
            let length = Int(data[pos + 2]) << 8 | Int(data[pos + 3])
            guard length >= 2, pos + 2 + length <= data.count else { return nil }
            let segment = (pos + 4)..<(pos + 2 + length)
            if marker == 0xE1, segment.count > 6, data[segment].starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {
                let range = data.withUnsafeBytes { all in
                    ExifReader.thumbnailRange(UnsafeRawBufferPointer(rebasing: all[segment]))
                }
                return range.map { Array(data[(segment.lowerBound + $0.lowerBound)..<(segment.lowerBound + $0.upperBound)]) }
            }
            pos = segment.upperBound
        }
        return nil
    }
}
