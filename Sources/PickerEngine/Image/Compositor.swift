import CPickerCodecs
import PickerProtocol

/// Flattening and canvas drawing (pixel work in C).
public enum Compositor {
    /// Flattens an RGBA picture over a solid colour, giving RGB.
    /// An RGB picture is returned unchanged.
    public static func flatten(_ image: PixelImage,
                               over colour: RGBColor) throws(PickerError) -> PixelImage {
        guard image.channels == 4 else { return image }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let status = pk_flatten(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                                colour.red, colour.green, colour.blue, &output)
        guard status == 0,
              let bytes = CodecResult.adopt(output, count: image.width * image.height * 3) else {
            throw PickerError(.internal, "flattening a \(image.size) image failed (status \(status))")
        }
        return try PixelImage.checked(width: image.width, height: image.height, channels: 3, pixels: bytes)
    }

    /// A new RGB canvas of one colour.
    /// - Throws: `.imageTooLarge` when `size` exceeds `PixelImage.maxCanvasPixels` (checked before allocating).
    public static func canvas(_ size: PixelSize, colour: RGBColor) throws(PickerError) -> PixelImage {
        try PixelImage(width: size.width, height: size.height, channels: 3, filledWith: colour)
    }

    /// Draws `image` (alpha-blended when RGBA) onto an RGB `canvas` with its
    /// top-left corner at (`x`, `y`), clipped at the canvas edges.
    /// A canvas that is not RGB is left unchanged.
    public static func draw(_ image: PixelImage, onto canvas: inout PixelImage, x: Int, y: Int) {
        guard canvas.channels == 3 else { return }
        let cw = Int32(canvas.width), ch = Int32(canvas.height)
        canvas.withUnsafeMutablePixels { target in
            pk_draw_onto(target.baseAddress, target.count, cw, ch, image.pixels, image.pixels.count, Int32(image.width),
                         Int32(image.height), Int32(image.channels),
                         Int32(clamping: x), Int32(clamping: y))
        }
    }
}
