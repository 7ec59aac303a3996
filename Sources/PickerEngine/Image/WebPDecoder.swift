import CPickerCodecs
import PickerProtocol

/// WebP decoding through libwebp. Animated files give their first frame.
public enum WebPDecoder {
    /// Decodes a WebP, optionally through libwebp's scaler.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - scaledTo: when set, libwebp scales to exactly this size while
    ///     decoding (still images only; animations return the full canvas).
    ///   - maxPixels: canvas width × height above this is refused before any
    ///     pixel buffer is allocated.
    ///   - photoName: the name error messages use.
    /// - Returns: RGB, or RGBA when the file has alpha or is animated.
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`.
    public static func decode(_ data: [UInt8], scaledTo: PixelSize? = nil, maxPixels: Int,
                              photoName: String) throws(PickerError) -> PixelImage {
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let sw = Int32(clamping: scaledTo?.width ?? 0), sh = Int32(clamping: scaledTo?.height ?? 0)
        let status = data.withUnsafeBufferPointer { buffer in
            pk_webp_decode(buffer.baseAddress, buffer.count, sw, sh, CodecResult.cap(maxPixels),
                           &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    format: .webp, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image) else {
            throw PickerError(.internal, "\(photoName): WebP decoder returned no pixels")
        }
        return result
    }
}
