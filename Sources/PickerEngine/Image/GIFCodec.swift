import CPickerCodecs
import PickerProtocol

/// GIF through giflib (pk_gif.c): the first frame, composited onto the logical screen.
///
/// An animation shows its first frame; a frame with a transparent index, or one that does not
/// cover the screen, gives RGBA with those pixels transparent. GIF has no EXIF, so the
/// orientation is always `.up` and there is no capture date. There is no shrink-on-load: GIF is
/// decoded at full size and resampled once.
enum GIFCodec: ImageCodec {
    static var format: PhotoFormat { .gif }

    /// `GIF87a` or `GIF89a`.
    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
    }

    /// The logical screen descriptor: width and height, little-endian, after the 6-byte signature.
    /// The size the screen declares is what is listed (the decoder checks the cap and the frame).
    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        guard let width = source.u16le(at: 6), let height = source.u16le(at: 8) else {
            throw HeaderParseError("truncated logical screen descriptor")
        }
        return ImageHeader(format: .gif, storedWidth: width, storedHeight: height)
    }

    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        try decode(data, maxPixels: maxPixels, photoName: photoName)
    }

    /// Decodes the first frame at the screen's size.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - maxPixels: a screen of more pixels is refused before any pixel buffer is allocated.
    ///   - photoName: the name error messages use.
    /// - Returns: RGB, or RGBA when the frame has transparency or does not cover the screen.
    /// - Throws: `.corruptImage` (frame outside the screen, no colour table, truncated data),
    ///   `.imageTooLarge`.
    static func decode(_ data: [UInt8], maxPixels: Int, photoName: String) throws(PickerError) -> PixelImage {
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let status = data.withUnsafeBufferPointer { buffer in
            pk_gif_decode(buffer.baseAddress, buffer.count, CodecResult.cap(maxPixels), &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): GIF decoder returned no pixels")
        }
        return result
    }
}
