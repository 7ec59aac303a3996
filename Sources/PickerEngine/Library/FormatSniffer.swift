import PickerProtocol

/// Tells an image format from a file's first bytes (never from its name).
public enum FormatSniffer {
    /// How many leading bytes `sniff` needs to decide.
    public static let bytesNeeded = 12

    /// The format whose magic bytes `prefix` starts with, or nil when it is none we support.
    ///
    /// - JPEG: `FF D8` (SOI; libjpeg accepts stray bytes between SOI and the next marker, so no
    ///   third `FF` is required: damaged files that still decode are recognised)
    /// - PNG: `89 50 4E 47 0D 0A 1A 0A`
    /// - WebP: `RIFF` + 4 size bytes + `WEBP`
    public static func sniff<C: Collection>(_ prefix: C) -> ImageFormat? where C.Element == UInt8 {
        var head: [UInt8] = []
        head.reserveCapacity(bytesNeeded)
        for byte in prefix.prefix(bytesNeeded) { head.append(byte) }
        if head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 { return .jpeg }
        if head.count >= 8, head[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if head.count >= 12, head[0..<4].elementsEqual(Array("RIFF".utf8)),
           head[8..<12].elementsEqual(Array("WEBP".utf8)) {
            return .webp
        }
        return nil
    }
}
