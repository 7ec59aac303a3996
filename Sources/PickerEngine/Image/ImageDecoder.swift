import PickerProtocol

/// Decodes any supported format with shrink-on-load toward a target size.
public enum ImageDecoder {
    /// Decodes `data` as `header.format`, as small as the target allows.
    ///
    /// JPEG uses DCT scaling and WebP libwebp's scaler, both chosen by
    /// `ShrinkFactor` so the result stays at least twice `storedTarget`; PNG is
    /// always decoded at full size. The result is in stored orientation.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - header: format and stored size (its declared size is checked against
    ///     `maxPixels` before anything is decoded).
    ///   - photoName: the name error messages use.
    ///   - storedTarget: the final size in stored axes, or nil for full size.
    ///   - maxPixels: the pixel cap.
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`.
    public static func decode(_ data: [UInt8], header: ImageHeader, photoName: String,
                              storedTarget: PixelSize?, maxPixels: Int) throws(PickerError) -> PixelImage {
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        if Int64(max(0, stored.width)) * Int64(max(0, stored.height)) > Int64(max(0, maxPixels)) {
            throw tooLarge(stored, maxPixels: maxPixels, photoName: photoName)
        }
        let denominator = storedTarget.map {
            stored.width > 0 && stored.height > 0
                ? ShrinkFactor.jpegDenominator(stored: stored, target: $0) : 1
        } ?? 1
        switch header.format {
        case .jpeg:
            return try JPEGDecoder.decode(data, scaleDenominator: denominator, maxPixels: maxPixels,
                                          photoName: photoName)
        case .png:
            return try PNGDecoder.decode(data, maxPixels: maxPixels, photoName: photoName)
        case .webp:
            let scaled = denominator > 1 ? ShrinkFactor.scaledSize(stored, denominator: denominator) : nil
            return try WebPDecoder.decode(data, scaledTo: scaled, maxPixels: maxPixels,
                                          photoName: photoName)
        case .sixel, .symbols:
            throw PickerError(.unsupportedImage, "\(photoName): \(header.format.displayName) is an output format only")
        }
    }

    /// The error for a picture whose declared size is over the cap.
    static func tooLarge(_ size: PixelSize, maxPixels: Int, photoName: String) -> PickerError {
        let mpx = Double(size.width) * Double(size.height) / 1e6
        let cap = Double(maxPixels) / 1e6
        return PickerError(.imageTooLarge,
                           "\(photoName): image too large: \(size) (\(formatted(mpx)) Mpx) exceeds the limit of \(formatted(cap)) Mpx")
    }

    private static func formatted(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }
}
