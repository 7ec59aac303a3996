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
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): WebP decoder returned no pixels")
        }
        return result
    }
}

extension WebPDecoder: ImageCodec {
    static var format: PhotoFormat { .webp }

    /// `RIFF` + 4 size bytes + `WEBP`.
    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        head.count >= 12 && head.prefix(4).elementsEqual("RIFF".utf8)
            && head.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        try WebPHeaderParser.parse(&source)
    }

    /// libwebp's scaler, by the factor JPEG would use (it decodes fully, then scales).
    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        let denominator = storedTarget.map { ShrinkFactor.jpegDenominator(stored: stored, target: $0) } ?? 1
        let scaled = denominator > 1 ? ShrinkFactor.scaledSize(stored, denominator: denominator) : nil
        return try decode(data, scaledTo: scaled, maxPixels: maxPixels, photoName: photoName)
    }
}
