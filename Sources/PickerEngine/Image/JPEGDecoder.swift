import CPickerCodecs
import PickerProtocol

/// JPEG decoding through libjpeg-turbo (classic API, in CPickerCodecs).
///
/// Output is always RGB: greyscale is expanded, CMYK/YCCK (Adobe-inverted or
/// plain) converted. Warnings that mean lost image data (truncation, damaged
/// entropy data outside restart intervals, broken progression) are errors.
public enum JPEGDecoder {
    /// Decodes a JPEG at DCT scale 1/`scaleDenominator`.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - scaleDenominator: 1, 2, 4 or 8 (see `ShrinkFactor`); each side of the
    ///     result is the stored side divided by it, rounded up.
    ///   - maxPixels: declared width × height above this is refused before any
    ///     pixel buffer is allocated.
    ///   - photoName: the name error messages use.
    /// - Throws: `.corruptImage`, `.unsupportedImage` (12-bit, lossless),
    ///   `.imageTooLarge`.
    public static func decode(_ data: [UInt8], scaleDenominator: Int = 1, maxPixels: Int,
                              photoName: String) throws(PickerError) -> PixelImage {
        let denominator = [1, 2, 4, 8].contains(scaleDenominator) ? scaleDenominator : 1
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let status = data.withUnsafeBufferPointer { buffer in
            pk_jpeg_decode(buffer.baseAddress, buffer.count, Int32(denominator),
                           CodecResult.cap(maxPixels), &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): JPEG decoder returned no pixels")
        }
        return result
    }

    /// Decodes a JPEG at DCT scale 1/`scaleDenominator` and resamples it to
    /// exactly `size` (stored axes) while decoding, with the same Lanczos-3
    /// filter as `Resampler`; the decoded picture is never held whole.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - scaleDenominator: 1, 2, 4 or 8 (see `ShrinkFactor`).
    ///   - size: the output size in stored axes (sides below 1 count as 1).
    ///   - maxPixels: declared width × height above this is refused first.
    ///   - photoName: the name error messages use.
    /// - Returns: an RGB image of exactly `size`, in stored orientation.
    /// - Throws: as `decode`.
    public static func decodeFitted(_ data: [UInt8], scaleDenominator: Int, size: PixelSize,
                                    maxPixels: Int, photoName: String) throws(PickerError) -> PixelImage {
        let denominator = [1, 2, 4, 8].contains(scaleDenominator) ? scaleDenominator : 1
        let w = max(1, size.width), h = max(1, size.height)
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let status = data.withUnsafeBufferPointer { buffer in
            pk_jpeg_decode_fit(buffer.baseAddress, buffer.count, Int32(denominator),
                               CodecResult.cap(maxPixels), Int32(clamping: w), Int32(clamping: h),
                               &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName), result.width == w, result.height == h else {
            throw PickerError(.internal, "\(photoName): JPEG decoder returned no pixels")
        }
        return result
    }
}

extension JPEGDecoder: ImageCodec {
    static var format: PhotoFormat { .jpeg }

    /// `FF D8` (SOI). libjpeg accepts stray bytes between SOI and the next marker, so no third
    /// `FF` is required: damaged files that still decode are recognised.
    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        head.count >= 2 && head[head.startIndex] == 0xFF && head[head.startIndex + 1] == 0xD8
    }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        try JPEGHeaderParser.parse(&source)
    }

    /// The EXIF thumbnail when allowed and big enough, else a DCT-scaled decode: the largest of
    /// 1/2, 1/4, 1/8 that leaves twice the target.
    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        if embeddedThumbnail, let target = storedTarget,
           var thumbnail = JPEGThumbnail.decode(data, stored: stored, covering: target, maxPixels: maxPixels) {
            // The EXIF thumbnail has no profile of its own: it is in the picture's colour space.
            if let profile = embeddedProfile(data) {
                ColourTransform.note(ColourTransform.convertToSRGB(&thumbnail, profile: profile), photoName: photoName)
            }
            return thumbnail
        }
        let denominator = storedTarget.map { ShrinkFactor.jpegDenominator(stored: stored, target: $0) } ?? 1
        return try decode(data, scaleDenominator: denominator, maxPixels: maxPixels, photoName: photoName)
    }

    /// The file's ICC profile (APP2 chunks joined), or nil when it has none or its header is damaged.
    static func embeddedProfile(_ data: [UInt8]) -> [UInt8]? {
        var icc: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = CodecResult.messageBuffer()
        let status = data.withUnsafeBufferPointer { pk_jpeg_read_icc($0.baseAddress, $0.count, &icc, &length, &message) }
        let bytes = CodecResult.adopt(icc, count: length)
        return status == 0 ? bytes : nil
    }

    static func decodeFitted(_ data: [UInt8], stored: PixelSize, size: PixelSize, maxPixels: Int,
                             photoName: String) throws(PickerError) -> PixelImage {
        let denominator = ShrinkFactor.jpegDenominator(stored: stored, target: size)
        return try decodeFitted(data, scaleDenominator: denominator, size: size, maxPixels: maxPixels,
                                photoName: photoName)
    }
}
