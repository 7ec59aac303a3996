import PickerProtocol

/// Decodes any supported format with shrink-on-load toward a target size.
public enum ImageDecoder {
    /// Decodes `data` as `header.format`, as small as the target allows.
    ///
    /// The format's codec (`ImageCodecs`) shrinks on load where it can: JPEG by DCT
    /// scaling and WebP by libwebp's scaler (both leaving at least twice
    /// `storedTarget`), HEIF by an embedded thumbnail that covers the target; PNG is
    /// always decoded at full size. The result is in stored orientation.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - header: format and stored size (its declared size is checked against
    ///     `maxPixels` before anything is decoded).
    ///   - photoName: the name error messages use.
    ///   - storedTarget: the final size in stored axes, or nil for full size.
    ///   - maxPixels: the pixel cap.
    ///   - embeddedThumbnail: grid cells: the file's own thumbnail (JPEG EXIF IFD1, HEIF thumbnail
    ///     item) may serve when it covers `storedTarget` with the picture's aspect (within 1 %).
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`.
    public static func decode(_ data: [UInt8], header: ImageHeader, photoName: String,
                              storedTarget: PixelSize?, maxPixels: Int,
                              embeddedThumbnail: Bool = false) throws(PickerError) -> PixelImage {
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        if Int64(max(0, stored.width)) * Int64(max(0, stored.height)) > Int64(max(0, maxPixels)) {
            throw tooLarge(stored, maxPixels: maxPixels, photoName: photoName)
        }
        guard let codec = ImageCodecs.codec(for: header.format) else {
            throw PickerError(.unsupportedImage, "\(photoName): pickerd does not read \(header.format.displayName) files")
        }
        let target = stored.width > 0 && stored.height > 0 ? storedTarget : nil
        return try codec.decode(data, stored: stored, storedTarget: target, maxPixels: maxPixels,
                                embeddedThumbnail: embeddedThumbnail, photoName: photoName)
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
