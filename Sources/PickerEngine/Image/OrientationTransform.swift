import CPickerCodecs
import PickerProtocol

/// Turns a picture stored with an EXIF orientation into its upright form.
public enum OrientationTransform {
    /// Applies `orientation` (mirror / rotate / transpose) so the result is upright.
    ///
    /// - Parameters:
    ///   - orientation: the EXIF orientation the picture was stored with.
    ///   - image: the picture in stored axes.
    /// - Returns: the upright picture; width and height are swapped for 5–8.
    ///   `.up` returns `image` unchanged.
    /// - Throws: `.internal` if memory runs out.
    public static func apply(_ orientation: Orientation,
                             to image: PixelImage) throws(PickerError) -> PixelImage {
        if orientation == .up { return image }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var ow: Int32 = 0, oh: Int32 = 0
        let status = pk_orient(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                               Int32(image.channels), Int32(orientation.rawValue),
                               &output, &ow, &oh)
        guard status == 0,
              let bytes = CodecResult.adopt(output, count: image.pixels.count) else {
            throw PickerError(.internal, "orienting a \(image.size) image failed (status \(status))")
        }
        return try PixelImage.checked(width: Int(ow), height: Int(oh), channels: image.channels, pixels: bytes)
    }

    /// The upright size of a picture stored at `size` with `orientation`.
    public static func uprightSize(_ size: PixelSize, _ orientation: Orientation) -> PixelSize {
        orientation.swapsAxes ? size.transposed : size
    }
}
