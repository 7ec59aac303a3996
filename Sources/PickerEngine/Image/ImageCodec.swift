import PickerProtocol

/// The reading side of one photo format: how to recognise it, read its header and decode it.
///
/// One type per format, each in its own file beside its C file in CPickerCodecs, and all of
/// them listed once in `ImageCodecs.all`: adding a format is one codec file, one C file and
/// one line there. Output formats (`ImageFormat`) are written by `ImageEncoder`.
protocol ImageCodec: Sendable {
    /// The format this codec reads.
    static var format: PhotoFormat { get }

    /// True when a file starting with `head` (up to `FormatSniffer.bytesNeeded` bytes) is in this format.
    static func sniff(_ head: ArraySlice<UInt8>) -> Bool

    /// Format, stored size, orientation and capture date, without decoding pixels.
    /// - Throws: `HeaderParseError` for a damaged header.
    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader

    /// Decodes the picture in stored orientation, as small as the codec can while staying
    /// at least `storedTarget` on each axis (nil: full size).
    /// - Parameters:
    ///   - data: the whole file.
    ///   - stored: the stored size the header declared (already checked against `maxPixels`).
    ///   - storedTarget: the size the caller will resample to, in stored axes, or nil.
    ///   - maxPixels: the pixel cap, checked again by the C decoder on what it finds.
    ///   - embeddedThumbnail: grid cells: the file's own thumbnail may serve when it covers
    ///     `storedTarget` with the picture's aspect ratio (within 1 %).
    ///   - photoName: the name error messages use.
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`.
    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage

    /// Bytes a full decode holds at its peak per stored pixel (for `WorkEstimate`).
    static var peakBytesPerPixel: Int { get }

    /// Bytes `decode` holds at its peak for `storedTarget` (nil: full size), judged from the
    /// header alone (for `WorkEstimate`); the default is `peakBytesPerPixel` of the stored size.
    static func decodeBytes(_ header: ImageHeader, storedTarget: PixelSize?) -> Int

    /// The file's own thumbnail alone (stored orientation), read from `data` (the file's first
    /// `embeddedThumbnailPrefix` bytes, or more), when it covers `storedTarget` with the
    /// aspect of `stored` (within 1 %); nil when there is none, it is too small, or it does not
    /// decode. Grid cells ask for it before the shared thumbnail store and a decode of the picture.
    static func embeddedThumbnail(_ data: [UInt8], stored: PixelSize, covering storedTarget: PixelSize,
                                  maxPixels: Int) -> PixelImage?

    /// How many of the file's first bytes `embeddedThumbnail` needs (0: it has none to find), so a
    /// grid cell reads that much before it asks the shared store.
    static var embeddedThumbnailPrefix: Int { get }

    /// False when the file's last bytes show it was cut short (a JPEG without its end marker):
    /// its embedded thumbnail may be whole while the picture is not, so the cell decodes instead.
    static func endLooksComplete(_ tail: [UInt8]) -> Bool

    /// Decodes and resamples to exactly `size` (stored axes). Codecs that can stream rows into
    /// the resampler do so; the default decodes (shrunk on load) and resamples once.
    static func decodeFitted(_ data: [UInt8], stored: PixelSize, size: PixelSize, maxPixels: Int,
                             photoName: String) throws(PickerError) -> PixelImage
}

extension ImageCodec {
    /// The decoded picture (RGBA at most) and nothing else.
    static var peakBytesPerPixel: Int { 4 }

    static func decodeBytes(_ header: ImageHeader, storedTarget: PixelSize?) -> Int {
        PixelCount.product(header.storedWidth, header.storedHeight, peakBytesPerPixel)
    }

    /// No thumbnail apart from the picture (HEIF's thumbnail item is taken inside `decode`).
    static func embeddedThumbnail(_ data: [UInt8], stored: PixelSize, covering storedTarget: PixelSize,
                                  maxPixels: Int) -> PixelImage? { nil }

    static var embeddedThumbnailPrefix: Int { 0 }

    static func endLooksComplete(_ tail: [UInt8]) -> Bool { true }

    static func decodeFitted(_ data: [UInt8], stored: PixelSize, size: PixelSize, maxPixels: Int,
                             photoName: String) throws(PickerError) -> PixelImage {
        let decoded = try decode(data, stored: stored, storedTarget: size, maxPixels: maxPixels,
                                 embeddedThumbnail: false, photoName: photoName)
        return try ImageRenderer.named(photoName) { () throws(PickerError) in
            try Resampler.resample(decoded, to: size)
        }
    }
}
