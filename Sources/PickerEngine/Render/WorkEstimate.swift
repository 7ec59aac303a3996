import PickerProtocol

/// How many bytes an image job will hold at its peak, estimated before it starts from what the
/// library index knows (file size, header), so it can reserve them from the `WorkBudget`.
///
/// Estimates lean high: pixels count 4 bytes unless the format is JPEG (3), a PNG or WebP is taken
/// as decoded whole at stored size (JPEG streams rows through the resampler at its DCT scale), and
/// an encoded result is taken as large as its raw pixels for PNG, half of them otherwise.
public enum WorkEstimate {
    /// `render`: file + decode + fitted picture (and its upright copy) + encoded result.
    public static func render(header: ImageHeader, fileBytes: Int, fit: FitTarget,
                              output: ImageFormat, maxPixels: Int) -> Int {
        let fitted = fittedBytes(header, fit: fit)
        return PixelCount.sum(fileBytes, decodeBytes(header, fit: fit, maxPixels: maxPixels),
                              PixelCount.product(fitted, header.orientation == .up ? 1 : 2), encodedBytes(fitted, output))
    }

    /// `preview`: a render to fit W×H (upscaling allowed) drawn on a W×H canvas, which is encoded.
    public static func preview(header: ImageHeader, fileBytes: Int, width: Int, height: Int,
                               output: ImageFormat, maxPixels: Int) -> Int {
        let fit = FitTarget(maxWidth: width, maxHeight: height, allowUpscale: true)
        let canvas = PixelCount.product(width, height, 3)
        let fitted = fittedBytes(header, fit: fit)
        return PixelCount.sum(fileBytes, decodeBytes(header, fit: fit, maxPixels: maxPixels),
                              PixelCount.product(fitted, header.orientation == .up ? 1 : 2), canvas,
                              encodedBytes(canvas, output))
    }

    /// A zoomed `preview`: the whole picture decoded at full size (and its upright copy), the window
    /// cut from it, the W×H canvas it is drawn on, and that encoded.
    public static func zoomedPreview(header: ImageHeader, fileBytes: Int, width: Int, height: Int,
                                     output: ImageFormat, maxPixels: Int) -> Int {
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        let decoded = stored.width > 0 && stored.height > 0 ? codecBytes(header, storedTarget: stored) : PixelCount.product(maxPixels, 4)
        let canvas = PixelCount.product(width, height, 3)
        return PixelCount.sum(fileBytes, PixelCount.product(decoded, header.orientation == .up ? 1 : 2),
                              PixelCount.product(width, height, 4), canvas, encodedBytes(canvas, output))
    }

    /// One thumbnail cell: file + whole decode at the shrink factor for the covering size + its
    /// upright copy + the cell.
    public static func thumbnailCell(header: ImageHeader, fileBytes: Int, box: Int, maxPixels: Int) -> Int {
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        guard stored.width > 0, stored.height > 0 else {
            return PixelCount.sum(fileBytes, PixelCount.product(2, maxPixels, 4))
        }
        let cover = FitMath.cover(width: header.displayWidth, height: header.displayHeight,
                                  box: PixelSize(width: box, height: box)).scaled
        let target = OrientationTransform.uprightSize(cover, header.orientation)
        var decoded = codecBytes(header, storedTarget: target)
        if header.format == .jpeg {
            let scaled = ShrinkFactor.scaledSize(stored, denominator: ShrinkFactor.jpegDenominator(stored: stored, target: target))
            decoded = PixelCount.product(scaled.width, scaled.height, 3)
        }
        return PixelCount.sum(fileBytes, PixelCount.product(2, decoded), PixelCount.product(box, box, 4))
    }

    /// A thumbnail sheet's canvas, its PNG, and the cells drawn on it (about the canvas's area).
    public static func thumbnailSheet(width: Int, height: Int) -> Int {
        PixelCount.product(width, height, 3, 3)
    }

    /// Pixels the decoder holds: the whole picture at its shrink factor, or for JPEG with a known
    /// size the row buffers of the streaming resampler. An unknown size counts as `maxPixels`.
    static func decodeBytes(_ header: ImageHeader, fit: FitTarget, maxPixels: Int) -> Int {
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        guard stored.width > 0, stored.height > 0 else { return PixelCount.product(maxPixels, 4) }
        let display = PixelSize(width: header.displayWidth, height: header.displayHeight)
        let target = OrientationTransform.uprightSize(fit.fittedSize(for: display), header.orientation)
        guard header.format == .jpeg else { return codecBytes(header, storedTarget: target) }
        let scaled = ShrinkFactor.scaledSize(stored, denominator: ShrinkFactor.jpegDenominator(stored: stored, target: target))
        // The streaming resampler keeps a ring of float rows (16 bytes a pixel), a few dozen deep.
        return PixelCount.product(scaled.width, 16, 64)
    }

    /// What the format's codec holds at its peak for the target (HEIF: libheif's planes as
    /// well; RAW: the preview that serves it, or LibRaw's develop of the sensor).
    static func codecBytes(_ header: ImageHeader, storedTarget: PixelSize) -> Int {
        guard let codec = ImageCodecs.codec(for: header.format) else {
            return PixelCount.product(header.storedWidth, header.storedHeight, 4)
        }
        return codec.decodeBytes(header, storedTarget: storedTarget)
    }

    static func fittedBytes(_ header: ImageHeader, fit: FitTarget) -> Int {
        let display = PixelSize(width: max(1, header.displayWidth), height: max(1, header.displayHeight))
        let size = fit.fittedSize(for: display)
        return PixelCount.product(size.width, size.height, header.format == .jpeg ? 3 : 4)
    }

    static func encodedBytes(_ rawBytes: Int, _ format: ImageFormat) -> Int {
        switch format {
        case .png: return rawBytes
        // chafa keeps its own copy of the pixels while it draws, and sixel text can outgrow them.
        case .sixel, .symbols: return PixelCount.product(rawBytes, 2)
        case .jpeg, .webp: return rawBytes / 2
        default: return rawBytes  // a format this build does not write is refused before any work
        }
    }
}
