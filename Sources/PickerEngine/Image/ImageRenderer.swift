import PickerProtocol

/// The image pipeline: header → shrink-on-load decode → one Lanczos-3
/// resample → orientation (on the small image) → encode.
///
/// Pieces are public so other outputs can reuse them: a fill-and-crop
/// thumbnail is `decodeUpright` + `FitMath.coverSourceCrop` +
/// `Resampler.resample(_:to:crop:)`; a preview on black is `decodeUpright` +
/// `FitMath.fit` (upscale allowed) + `Resampler` + `Compositor.canvas/draw`.
public enum ImageRenderer {
    /// Decodes a photo as small as `minimumDisplaySize` allows and turns it upright.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - header: format, stored size and orientation.
    ///   - photoName: the name error messages use.
    ///   - minimumDisplaySize: the size (display axes) the caller will resample
    ///     to; the result is at least twice that where shrink-on-load applies,
    ///     else full size. nil decodes at full size.
    ///   - maxPixels: the declared-size cap (checked before allocating pixels).
    ///   - embeddedThumbnail: for grid cells: the file's own thumbnail serves when it is at least
    ///     `minimumDisplaySize` with the picture's aspect ratio (see `ImageDecoder.decode`).
    /// - Returns: the upright picture (not resampled to an exact size).
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`, naming the photo.
    public static func decodeUpright(data: [UInt8], header: ImageHeader, photoName: String,
                                     minimumDisplaySize: (Int, Int)?, maxPixels: Int,
                                     embeddedThumbnail: Bool = false) throws(PickerError) -> PixelImage {
        let storedTarget = minimumDisplaySize.map {
            OrientationTransform.uprightSize(PixelSize(width: $0.0, height: $0.1), header.orientation)
        }
        let decoded = try ImageDecoder.decode(data, header: header, photoName: photoName,
                                              storedTarget: storedTarget, maxPixels: maxPixels,
                                              embeddedThumbnail: embeddedThumbnail)
        return try named(photoName) { () throws(PickerError) in
            try OrientationTransform.apply(header.orientation, to: decoded)
        }
    }

    /// Decodes, scales to fit and encodes one photo.
    ///
    /// - Parameters:
    ///   - data: the whole file.
    ///   - header: format, stored size and orientation.
    ///   - photoName: the name error messages use.
    ///   - fit: the box, in display axes.
    ///   - output: format and quality.
    ///   - maxPixels: the declared-size cap (checked before allocating pixels).
    /// - Returns: the encoded picture, upright, exactly `fit.fittedSize` of its
    ///   display size.
    /// - Throws: `.corruptImage`, `.unsupportedImage`, `.imageTooLarge`, naming the photo.
    public static func render(data: [UInt8], header: ImageHeader, photoName: String,
                              fit: FitTarget, output: OutputSpec,
                              maxPixels: Int) throws(PickerError) -> RenderedImage {
        let image = try fittedUpright(data: data, header: header, photoName: photoName, fit: fit,
                                      maxPixels: maxPixels)
        return try encode(image, photoName: photoName, output: output)
    }

    /// Encodes decoded pixels (the daemon's half of a render whose decode ran in a worker).
    public static func encode(_ image: PixelImage, photoName: String,
                              output: OutputSpec) throws(PickerError) -> RenderedImage {
        try encode(.image(image), photoName: photoName, output: output)
    }

    /// Encodes pixels as they came from the decoder: a worker's rows stream into a big PNG.
    public static func encode(_ pixels: DecodedPixels, photoName: String,
                              output: OutputSpec) throws(PickerError) -> RenderedImage {
        // A job cancelled while it decoded does not go on to encode.
        if CancelFlag.currentIsRaised { throw PickerError(.cancelled, "\(photoName): cancelled") }
        return try named(photoName) { () throws(PickerError) in
            try ImageEncoder.encode(pixels, output: output)
        }
    }

    /// The decoded, upright picture resampled to exactly the fitted size (not encoded).
    ///
    /// When the header has no usable size, the picture is decoded at full size
    /// and fitted by what was decoded.
    public static func fittedUpright(data: [UInt8], header: ImageHeader, photoName: String,
                                     fit: FitTarget, maxPixels: Int) throws(PickerError) -> PixelImage {
        let headerKnowsSize = header.storedWidth > 0 && header.storedHeight > 0
        let display = PixelSize(width: header.displayWidth, height: header.displayHeight)
        let plannedTarget = headerKnowsSize
            ? OrientationTransform.uprightSize(fit.fittedSize(for: display), header.orientation) : nil
        if let target = plannedTarget, let codec = ImageCodecs.codec(for: header.format) {
            // The codec decodes and resamples in one go: JPEG and PNG stream rows into the
            // resampler (the full-size picture is never held), the others shrink on load first.
            let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
            if Int64(stored.width) * Int64(stored.height) > Int64(max(0, maxPixels)) {
                throw ImageDecoder.tooLarge(stored, maxPixels: maxPixels, photoName: photoName)
            }
            let resized = try codec.decodeFitted(data, stored: stored, size: target, maxPixels: maxPixels,
                                                 photoName: photoName)
            return try named(photoName) { () throws(PickerError) in
                try OrientationTransform.apply(header.orientation, to: resized)
            }
        }
        let decoded = try ImageDecoder.decode(data, header: header, photoName: photoName,
                                              storedTarget: plannedTarget, maxPixels: maxPixels)
        let storedTarget = plannedTarget ?? OrientationTransform.uprightSize(
            fit.fittedSize(for: OrientationTransform.uprightSize(decoded.size, header.orientation)),
            header.orientation)
        return try named(photoName) { () throws(PickerError) in
            // Resample in stored axes, then orient the (smaller) result.
            let resized = try Resampler.resample(decoded, to: storedTarget)
            return try OrientationTransform.apply(header.orientation, to: resized)
        }
    }

    /// Runs `body`, prefixing the photo name to internal errors that lack it.
    static func named<T>(_ photoName: String,
                         _ body: () throws(PickerError) -> T) throws(PickerError) -> T {
        do {
            return try body()
        } catch {
            if error.message.hasPrefix("\(photoName):") { throw error }
            throw PickerError(error.code, "\(photoName): \(error.message)")
        }
    }
}
