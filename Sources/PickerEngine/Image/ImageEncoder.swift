import CPickerCodecs
import PickerProtocol

/// Encodes pixels to PNG, JPEG or WebP in memory, or to terminal text (sixel, symbols).
public enum ImageEncoder {
    /// zlib level for PNG output: fast, output a little larger than level 6.
    public static let pngCompressionLevel = 1
    /// Colour under transparent pixels when writing JPEG, which has no alpha.
    public static let jpegMatte = RGBColor.white

    /// Encodes `image`.
    ///
    /// - Parameters:
    ///   - image: RGB or RGBA pixels.
    ///   - format: the output format. PNG and WebP keep alpha; JPEG (baseline,
    ///     4:2:0) flattens it over `jpegMatte`.
    ///   - quality: 1–100 for JPEG and WebP (clamped); ignored for PNG.
    /// - Returns: the encoded file bytes.
    /// - Throws: `.invalidArgument` for sizes the format cannot hold
    ///   (WebP: 16383 px a side), `.internal` when the encoder fails.
    public static func encode(_ image: PixelImage, as format: ImageFormat,
                              quality: Int) throws(PickerError) -> [UInt8] {
        if format.isTerminalText {
            return try encode(image, output: OutputSpec(format: format, quality: quality)).bytes
        }
        if format == .png {
            let bound = pk_png_encode_bound(Int32(image.width), Int32(image.height), Int32(image.channels))
            if bound >= pngInPlaceFromBytes { return try pngInPlace(image, capacity: bound) }
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = CodecResult.messageBuffer()
        let q = Int32(min(100, max(1, quality)))
        let status: Int32
        switch format {
        case .png:
            status = pk_png_encode(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                                   Int32(image.channels), Int32(pngCompressionLevel),
                                   &output, &length, &message)
        case .jpeg:
            let rgb = try Compositor.flatten(image, over: jpegMatte)
            status = pk_jpeg_encode(rgb.pixels, rgb.pixels.count, Int32(rgb.width), Int32(rgb.height), 3, q,
                                    &output, &length, &message)
        case .webp:
            status = pk_webp_encode(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                                    Int32(image.channels), q, &output, &length, &message)
        default:
            // sixel and symbols are handled above; anything else is not a format this build writes.
            status = Int32(bitPattern: PK_INVALID.rawValue)
        }
        guard status == 0, let bytes = CodecResult.adopt(output, count: length) else {
            throw failure(status, message, format, image.size)
        }
        return bytes
    }

    /// From this bound up, PNG is written in place (`pngInPlace`): such a buffer is its own mapping
    /// (the daemon maps blocks from 256 KiB), so the capacity the PNG does not fill is never resident.
    /// A smaller one could come from reused heap, where a cached picture would pin all its capacity;
    /// its copy is cheap.
    static let pngInPlaceFromBytes = 1 << 20

    /// PNG written by libpng straight into the array returned, sized by `pk_png_encode_bound`: a
    /// 14 MB picture is not held a second time while it is copied out of the encoder's buffer (a
    /// 4000x2666 get-image: the daemon peaked 57 MiB above idle, 44 with this; the bytes are the same).
    private static func pngInPlace(_ image: PixelImage, capacity: Int) throws(PickerError) -> [UInt8] {
        try pngWritten(capacity: capacity, size: image.size) { dst, length, message in
            pk_png_encode_into(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                               Int32(image.channels), Int32(pngCompressionLevel), dst, capacity, &length, &message)
        }
    }

    /// A worker's rows streamed into a PNG written in place: the daemon holds one band of the
    /// picture (`SealedPixelRows`) and the PNG, not the picture too (a 4000x2666 get-image
    /// `--no-cache`: the daemon's peak rose 44,900 KiB over idle, 14,700 with this; the same bytes).
    private static func pngStreamed(_ rows: SealedPixelRows, capacity: Int) throws(PickerError) -> [UInt8] {
        let row: pk_png_row_fn = { context, y in
            guard let context else { return nil }
            return Unmanaged<SealedPixelRows>.fromOpaque(context).takeUnretainedValue().row(Int(y))
        }
        let size = PixelSize(width: rows.width, height: rows.height)
        do {
            return try withExtendedLifetime(rows) { () throws(PickerError) -> [UInt8] in
                try pngWritten(capacity: capacity, size: size) { dst, length, message in
                    pk_png_encode_rows_into(row, Unmanaged.passUnretained(rows).toOpaque(), Int32(rows.width),
                                            Int32(rows.height), Int32(rows.channels), Int32(pngCompressionLevel),
                                            dst, capacity, &length, &message)
                }
            }
        } catch {
            guard let failure = rows.failure else { throw error }
            throw PickerError(.internal, "PNG encoding of a \(size) image failed: the decoder's pixels could not be read: \(failure)")
        }
    }

    /// A PNG that `write` puts into an array of `capacity` bytes (its status, the length written).
    private static func pngWritten(capacity: Int, size: PixelSize,
                                   _ write: (UnsafeMutablePointer<UInt8>, inout Int, inout [CChar]) -> Int32)
        throws(PickerError) -> [UInt8] {
        var status = Int32(bitPattern: PK_INVALID.rawValue)
        var message = CodecResult.messageBuffer()
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var length = 0
            if let start = buffer.baseAddress { status = write(start, &length, &message) }
            count = status == 0 ? length : 0
        }
        guard status == 0, !bytes.isEmpty else { throw failure(status, message, .png, size) }
        return bytes
    }

    private static func failure(_ status: Int32, _ message: [CChar], _ format: ImageFormat,
                                _ size: PixelSize) -> PickerError {
        let text = CodecResult.text(message)
        if UInt32(bitPattern: status) == PK_CANCELLED.rawValue {
            return PickerError(.cancelled, "\(format.displayName) encoding of a \(size) image: cancelled")
        }
        let code: ErrorCode = UInt32(bitPattern: status) == PK_INVALID.rawValue ? .invalidArgument : .internal
        return PickerError(code, "\(format.displayName) encoding of a \(size) image failed: \(text)")
    }

    /// Encodes pixels as they came from the decoder: a big PNG streams a worker's rows
    /// (`pngStreamed`), everything else encodes the whole picture.
    public static func encode(_ pixels: DecodedPixels, output: OutputSpec) throws(PickerError) -> RenderedImage {
        if case .rows(let rows) = pixels, output.format == .png {
            let bound = pk_png_encode_bound(Int32(rows.width), Int32(rows.height), Int32(rows.channels))
            if bound >= pngInPlaceFromBytes {
                let bytes = try pngStreamed(rows, capacity: bound)
                return RenderedImage(bytes: bytes, width: rows.width, height: rows.height, format: .png)
            }
        }
        return try encode(try pixels.image(), output: output)
    }

    /// Encodes `image` as `output` asks, with the size the `image` reply reports.
    ///
    /// - Returns: file bytes and pixel size for PNG, JPEG, WebP and sixel; for `symbols`,
    ///   the text and its cell grid (columns, rows).
    /// - Throws: `.invalidArgument` for `symbols` without cells, and what `encode(_:as:quality:)` throws.
    public static func encode(_ image: PixelImage, output: OutputSpec) throws(PickerError) -> RenderedImage {
        switch output.format {
        case .sixel:
            return try TerminalImageEncoder.sixel(image)
        case .symbols:
            guard let cells = output.cells else { throw PickerError(.invalidArgument, "symbols needs cells") }
            return try TerminalImageEncoder.symbols(image, in: cells)
        default:
            let bytes = try encode(image, as: output.format, quality: output.quality)
            return RenderedImage(bytes: bytes, width: image.width, height: image.height, format: output.format)
        }
    }
}
