import CPickerCodecs
import PickerProtocol

/// PNG decoding through libpng (classic API, in CPickerCodecs).
///
/// Every colour type and bit depth is accepted: palette, low-bit grey and tRNS
/// are expanded, 16-bit reduced to 8, grey turned into RGB, Adam7 interlacing
/// handled. The result has 4 channels when the file has alpha (or tRNS), else 3.
/// CRC errors in critical chunks, zlib errors and truncation are errors;
/// damaged ancillary chunks are skipped.
public enum PNGDecoder {
    /// Decodes a PNG at full size.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - maxPixels: width × height above this (from IHDR) is refused before
    ///     any pixel buffer is allocated.
    ///   - photoName: the name error messages use.
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`.
    public static func decode(_ data: [UInt8], maxPixels: Int,
                              photoName: String) throws(PickerError) -> PixelImage {
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let status = data.withUnsafeBufferPointer { buffer in
            pk_png_decode(buffer.baseAddress, buffer.count, CodecResult.cap(maxPixels),
                          &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): PNG decoder returned no pixels")
        }
        return result
    }

    /// Decodes a PNG resampled to exactly `size` with the same Lanczos-3 filter
    /// as `Resampler`. A non-interlaced file streams row by row into the
    /// resampler (on a second thread when big), so the full-size picture is
    /// never held; an interlaced one is decoded whole first.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - size: the output size (sides below 1 count as 1).
    ///   - maxPixels: width × height above this (from IHDR) is refused first.
    ///   - photoName: the name error messages use.
    /// - Returns: an image of exactly `size`, 4 channels when the file has alpha, else 3.
    /// - Throws: as `decode`.
    public static func decodeFitted(_ data: [UInt8], size: PixelSize, maxPixels: Int,
                                    photoName: String) throws(PickerError) -> PixelImage {
        let w = max(1, size.width), h = max(1, size.height)
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let status = data.withUnsafeBufferPointer { buffer in
            pk_png_decode_fit(buffer.baseAddress, buffer.count, CodecResult.cap(maxPixels),
                              Int32(clamping: w), Int32(clamping: h), &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): PNG decoder returned no pixels")
        }
        return result
    }
}

extension PNGDecoder: ImageCodec {
    static var format: PhotoFormat { .png }

    /// `89 50 4E 47 0D 0A 1A 0A`.
    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        try PNGHeaderParser.parse(&source)
    }

    /// PNG has no shrink-on-load: always full size.
    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        try decode(data, maxPixels: maxPixels, photoName: photoName)
    }

    static func decodeFitted(_ data: [UInt8], stored: PixelSize, size: PixelSize, maxPixels: Int,
                             photoName: String) throws(PickerError) -> PixelImage {
        try decodeFitted(data, size: size, maxPixels: maxPixels, photoName: photoName)
    }
}
