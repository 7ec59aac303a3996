import CPickerCodecs
import PickerProtocol

/// High-quality resampling (separable Lanczos-3, in C).
///
/// Alpha is premultiplied while filtering, so transparent pixels do not bleed
/// dark fringes. Big reductions are first box-averaged by an integer factor
/// that still leaves at least 2x for the Lanczos pass.
public enum Resampler {
    /// Resamples `image` (or the `crop` rectangle of it) to exactly `size`.
    ///
    /// - Parameters:
    ///   - image: the source picture.
    ///   - size: the output size; sides below 1 count as 1.
    ///   - crop: the part of `image` to use (default: all of it); it is
    ///     clamped to the image.
    /// - Returns: an image of exactly `size`, with the source's channel count.
    /// - Throws: `.internal` if memory runs out.
    public static func resample(_ image: PixelImage, to size: PixelSize,
                                crop: PixelRect? = nil) throws(PickerError) -> PixelImage {
        let dw = max(1, size.width), dh = max(1, size.height)
        let rect = clamped(crop ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height),
                           to: image)
        if rect.x == 0, rect.y == 0, rect.width == image.width, rect.height == image.height,
           dw == image.width, dh == image.height {
            return image
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let status = pk_resample(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                                 Int32(image.channels), Int32(rect.x), Int32(rect.y),
                                 Int32(rect.width), Int32(rect.height),
                                 Int32(clamping: dw), Int32(clamping: dh), &output)
        guard status == 0,
              let bytes = CodecResult.adopt(output, count: dw * dh * image.channels) else {
            throw PickerError(.internal, "resampling \(image.size) to \(dw)x\(dh) failed (status \(status))")
        }
        return try PixelImage.checked(width: dw, height: dh, channels: image.channels, pixels: bytes)
    }

    /// `rect` limited to the image, at least 1x1.
    static func clamped(_ rect: PixelRect, to image: PixelImage) -> PixelRect {
        let x = min(max(0, rect.x), image.width - 1)
        let y = min(max(0, rect.y), image.height - 1)
        let w = min(max(1, rect.width), image.width - x)
        let h = min(max(1, rect.height), image.height - y)
        return PixelRect(x: x, y: y, width: w, height: h)
    }
}
