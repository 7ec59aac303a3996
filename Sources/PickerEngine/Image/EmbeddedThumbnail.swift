import PickerProtocol

/// A photo's own thumbnail (a JPEG's EXIF IFD1), upright, for a grid cell: the first source of
/// the cell's order — embedded thumbnail, then the shared freedesktop thumbnail, then a decode.
enum EmbeddedThumbnail {
    /// How much of a file of `format` to read for `upright` (0: the format carries none it can find).
    static func prefix(for format: PhotoFormat) -> Int {
        ImageCodecs.codec(for: format)?.embeddedThumbnailPrefix ?? 0
    }

    /// Bytes of the file's end that `endLooksComplete` looks at.
    static let tailBytes = 2

    /// False when a file of `format` ending in `tail` was cut short (see `ImageCodec.endLooksComplete`).
    static func endLooksComplete(_ tail: [UInt8], format: PhotoFormat) -> Bool {
        ImageCodecs.codec(for: format)?.endLooksComplete(tail) ?? true
    }

    /// The embedded thumbnail turned upright, when it covers `displayTarget` (display axes) with the
    /// picture's aspect ratio within 1 %; nil otherwise (the caller moves on to the next source).
    static func upright(_ data: [UInt8], header: ImageHeader, covering displayTarget: PixelSize,
                        maxPixels: Int) -> PixelImage? {
        guard let codec = ImageCodecs.codec(for: header.format) else { return nil }
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        let target = OrientationTransform.uprightSize(displayTarget, header.orientation)
        guard let thumbnail = codec.embeddedThumbnail(data, stored: stored, covering: target, maxPixels: maxPixels)
        else { return nil }
        return try? OrientationTransform.apply(header.orientation, to: thumbnail)
    }
}

extension JPEGDecoder {
    /// The EXIF APP1 segment is at most 64 KiB and comes before the picture, after at most a few
    /// other small segments (JFIF, a second APP1 of XMP is after it or not needed).
    static var embeddedThumbnailPrefix: Int { 192 * 1024 }

    /// Ends with EOI (FF D9). Files with data after it (padding, a phone's appended video) are
    /// decoded instead: slower, never wrong.
    static func endLooksComplete(_ tail: [UInt8]) -> Bool { tail.suffix(2) == [0xFF, 0xD9] }

    /// The EXIF IFD1 thumbnail alone (see `JPEGThumbnail`).
    static func embeddedThumbnail(_ data: [UInt8], stored: PixelSize, covering storedTarget: PixelSize,
                                  maxPixels: Int) -> PixelImage? {
        JPEGThumbnail.decode(data, stored: stored, covering: storedTarget, maxPixels: maxPixels)
    }
}
