import CPickerCodecs
import PickerProtocol

/// HEIF files through libheif (pk_heif.c): HEIC (HEVC pictures) and AVIF (AV1 pictures) share
/// the container, the header reading and the decoder; only their brands differ.
///
/// libheif applies the HEIF transforms (`irot`, `imir`, `clap`), so the header's size is the
/// upright size and its orientation is always `.up`: the EXIF orientation such files also
/// carry is ignored, or the picture would be turned twice. EXIF is read for the date only.
/// Grid (tiled) pictures, alpha and 10/12-bit pictures (reduced to 8-bit) are decoded by libheif.
enum HEIFContainer {
    /// libheif's YCbCr planes, its RGB(A) picture and our copy of it are alive together:
    /// measured 103 MB peak RSS for a 12 Mpx iPhone photo (picker-test-probe), ~8 bytes a pixel.
    static let peakBytesPerPixel = 8

    /// Brands that mark a HEIF image file libheif can read (ISO/IEC 23008-12, MIAF).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
    /// Brands that mark AV1 pictures (AVIF).
    static let avifBrands: Set<String> = ["avif", "avis"]

    /// The major and compatible brands of the `ftyp` box at the start of `head`, or [] when
    /// the file does not start with one.
    static func brands(_ head: ArraySlice<UInt8>) -> Set<String> {
        let bytes = Array(head)
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return [] }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard boxSize >= 16 else { return [] }
        var brands: Set<String> = [fourCC(bytes, 8)]
        var offset = 16  // after the major brand and the minor version
        while offset + 4 <= min(boxSize, bytes.count) {
            brands.insert(fourCC(bytes, offset))
            offset += 4
        }
        return brands
    }

    private static func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    /// Reads the container through `source` (only the boxes libheif asks for), checks the
    /// primary image and returns its upright size and capture date.
    static func readHeader(_ source: inout HeaderBytes, as format: PhotoFormat) throws(HeaderParseError) -> ImageHeader {
        var info = pk_heif_header()
        var message = CodecResult.messageBuffer()
        let size = Int64(source.size)
        // Headers are reported as declared (the decoder refuses what is over the cap), so
        // libheif's own limit here is only its largest side.
        let status = withUnsafeMutablePointer(to: &source) { pointer in
            pk_heif_info(HeaderReadCallback.read, pointer, size, UInt64(Int32.max), ImageHeaderReader.maxExifBytes,
                         &info, &message)
        }
        defer { pk_free(info.exif) }
        guard status == 0 else { throw HeaderParseError(CodecResult.text(message)) }
        var header = ImageHeader(format: format, storedWidth: Int(info.width), storedHeight: Int(info.height))
        if let exif = info.exif, info.exif_len > 0 {
            header.dateTimeOriginal = ExifReader.parse(UnsafeRawBufferPointer(start: exif, count: info.exif_len))
                .dateTimeOriginal
        }
        return header
    }

    /// Decodes the primary picture upright, or its embedded thumbnail when `embeddedThumbnail`
    /// is set and one covers `storedTarget` with the same aspect ratio (within 1 %). The primary
    /// picture is box-shrunk by JPEG's factor for `storedTarget` (at least twice the target
    /// left), so the colour transform and the resampler see 1/16 of a 12 Mpx photo at 600x400.
    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, embeddedThumbnail: Bool,
                       maxPixels: Int, format: PhotoFormat, photoName: String) throws(PickerError) -> PixelImage {
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let thumb = embeddedThumbnail ? storedTarget : nil
        let minW = Int32(clamping: thumb?.width ?? 0), minH = Int32(clamping: thumb?.height ?? 0)
        let denominator = storedTarget.map { ShrinkFactor.jpegDenominator(stored: stored, target: $0) } ?? 1
        let status = data.withUnsafeBufferPointer { buffer in
            pk_heif_decode(buffer.baseAddress, buffer.count, CodecResult.cap(maxPixels), minW, minH,
                           Int32(denominator), &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message),
                                    formatName: format.displayName, photoName: photoName)
        }
        guard let result = CodecResult.adopt(image, photoName: photoName) else {
            throw PickerError(.internal, "\(photoName): \(format.displayName) decoder returned no pixels")
        }
        return result
    }
}

/// HEIC: HEIF with HEVC pictures (iPhones since 2017), and any HEIF that is not AVIF.
enum HEICCodec: ImageCodec {
    static var peakBytesPerPixel: Int { HEIFContainer.peakBytesPerPixel }
    static var format: PhotoFormat { .heic }

    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        let brands = HEIFContainer.brands(head)
        return !brands.isDisjoint(with: HEIFContainer.heifBrands) && brands.isDisjoint(with: HEIFContainer.avifBrands)
    }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        try HEIFContainer.readHeader(&source, as: format)
    }

    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        try HEIFContainer.decode(data, stored: stored, storedTarget: storedTarget, embeddedThumbnail: embeddedThumbnail,
                                 maxPixels: maxPixels, format: format, photoName: photoName)
    }
}

/// AVIF: HEIF with AV1 pictures.
enum AVIFCodec: ImageCodec {
    static var peakBytesPerPixel: Int { HEIFContainer.peakBytesPerPixel }
    static var format: PhotoFormat { .avif }

    static func sniff(_ head: ArraySlice<UInt8>) -> Bool {
        !HEIFContainer.brands(head).isDisjoint(with: HEIFContainer.avifBrands)
    }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        try HEIFContainer.readHeader(&source, as: format)
    }

    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        try HEIFContainer.decode(data, stored: stored, storedTarget: storedTarget, embeddedThumbnail: embeddedThumbnail,
                                 maxPixels: maxPixels, format: format, photoName: photoName)
    }
}
