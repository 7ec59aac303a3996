import CPickerCodecs
import PickerProtocol

/// JPEG XL through libjxl 0.7 (pk_jxl.c): the bare codestream and the ISO BMFF container.
///
/// The header gives the stored size and the codestream's orientation, which the renderer
/// applies as it does a JPEG's EXIF orientation (libjxl is told to keep the stored
/// orientation); an EXIF orientation in an `Exif` box is ignored, the codestream's is the one
/// that counts. The capture date comes from an uncompressed `Exif` box; a Brotli-compressed one
/// (`brob`) is skipped. Animations show their first frame. Grid cells stop at the progressive DC
/// pass (1/8 resolution) when it covers the cell.
enum JXLCodec: ImageCodec {
    static var format: PhotoFormat { .jxl }

    /// libjxl 0.7 decodes group by group into our 8-bit buffer: measured peak RSS of a C probe
    /// (file + decode + output, 22 Mpx): 5.5 B/px lossy VarDCT, 3.8 B/px lossless, 3.4 B/px a
    /// recompressed JPEG; plus our copy of the pixels (3-4 B/px) while the C buffer is alive.
    static var peakBytesPerPixel: Int { 9 }

    /// The bare codestream starts `FF 0A`.
    static let codestreamSignature: [UInt8] = [0xFF, 0x0A]
    /// The container starts with its 12-byte signature box `JXL ` (ISO/IEC 18181-2).
    static let containerSignature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        head.starts(with: codestreamSignature) || head.starts(with: containerSignature)
    }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        var info = pk_jxl_header()
        var message = CodecResult.messageBuffer()
        let size = Int64(source.size)
        let status = withUnsafeMutablePointer(to: &source) { pointer in
            pk_jxl_info(HeaderReadCallback.read, pointer, size, &info, &message)
        }
        guard status == 0 else { throw HeaderParseError(CodecResult.text(message)) }
        var header = ImageHeader(format: format, storedWidth: Int(info.width), storedHeight: Int(info.height),
                                 orientation: Orientation(exifValue: Int(info.orientation)))
        if source.prefix.starts(with: containerSignature), let exif = JXLBoxes.exif(&source) {
            header.dateTimeOriginal = ExifReader.parse(exif).dateTimeOriginal
        }
        return header
    }

    /// Grid cells (`embeddedThumbnail`) and any target the DC pass covers stop at that pass.
    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let minW = Int32(clamping: storedTarget?.width ?? 0), minH = Int32(clamping: storedTarget?.height ?? 0)
        let status = data.withUnsafeBufferPointer { buffer in
            pk_jxl_decode(buffer.baseAddress, buffer.count, CodecResult.cap(maxPixels), minW, minH, &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): JPEG XL decoder returned no pixels")
        }
        return result
    }
}
