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
                                    format: .png, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image) else {
            throw PickerError(.internal, "\(photoName): PNG decoder returned no pixels")
        }
        return result
    }
}
