#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol
import PickerSystem

/// Reads an image's header — format, stored size, EXIF orientation and capture date —
/// without decoding pixels and without reading the whole file.
///
/// The format comes from the magic bytes. The first 64 KiB are read with one `pread`;
/// further bytes are read by offset only when a marker or chunk lies beyond them.
/// A header declaring more than the pixel cap (`--max-megapixels`, given as `maxPixels`; never
/// above `PixelCount.maxDeclaredPixels`) is refused here, "too large", so no listing, index row or
/// estimate ever holds it: the scanner lists such a photo broken, without a size.
public enum ImageHeaderReader {
    /// Largest EXIF block read from a PNG eXIf or WebP EXIF chunk (a JPEG APP1 holds at most 64 KiB).
    static let maxExifBytes = 4 * 1024 * 1024

    /// Reads the header of the file at `path`.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - name: how the file is named in error messages (defaults to `path`).
    ///   - maxPixels: the pixel cap (default: the ceiling, `PixelCount.maxDeclaredPixels`).
    /// - Throws: `PickerError` `.unsupportedImage` (no format of `ImageCodecs`), `.corruptImage`
    ///   (damaged header), `.imageTooLarge` (over the cap), `.noSuchPhoto` (missing file) or
    ///   `.ioError`; messages name the file.
    public static func read(path: String, name: String? = nil,
                            maxPixels: Int = PixelCount.maxDeclaredPixels) throws(PickerError) -> ImageHeader {
        let shown = name ?? path
        let fd: Int32
        do throws(SystemError) {
            fd = try FileSystem.open(path: path, flags: FileSystem.readFlags)
        } catch {
            let missing = error.errno == .noEntry || error.errno.rawValue == ENOTDIR
            throw PickerError(missing ? .noSuchPhoto : .ioError, "cannot open '\(shown)': \(error.errno)")
        }
        defer { FileSystem.close(fd) }
        let size: Int
        do throws(SystemError) {
            size = Int(try FileSystem.status(fd).size)
        } catch {
            throw PickerError(.ioError, "cannot stat '\(shown)': \(error.errno)")
        }
        return try read(fd: fd, fileSize: size, name: shown, maxPixels: maxPixels)
    }

    /// Reads the header from an open descriptor with `pread` (the file offset is not moved).
    /// - Parameters:
    ///   - fd: a readable descriptor of a regular file.
    ///   - fileSize: the file's size (from `fstat`).
    ///   - name: how the file is named in error messages.
    ///   - maxPixels: the pixel cap.
    /// - Throws: as `read(path:name:maxPixels:)`.
    public static func read(fd: Int32, fileSize: Int, name: String,
                            maxPixels: Int = PixelCount.maxDeclaredPixels) throws(PickerError) -> ImageHeader {
        let header = try readDeclared(fd: fd, fileSize: fileSize, name: name)
        try refuseOversize(header, name: name, maxPixels: maxPixels)
        return header
    }

    /// The header as declared, whatever size it declares (the scanner lists an oversize photo
    /// broken, so it needs the format; nothing else may use the size before `oversizeReason`).
    /// - Throws: as `read(path:name:maxPixels:)`, except `.imageTooLarge`.
    static func readDeclared(fd: Int32, fileSize: Int, name: String) throws(PickerError) -> ImageHeader {
        var source = HeaderBytes(fd: fd, size: fileSize)
        return try parse(&source, name: name)
    }

    /// Reads the header from bytes in memory (tests, or data already loaded).
    /// - Throws: `.unsupportedImage`, `.corruptImage` or `.imageTooLarge`, naming `name`.
    public static func read(bytes: [UInt8], name: String,
                            maxPixels: Int = PixelCount.maxDeclaredPixels) throws(PickerError) -> ImageHeader {
        var source = HeaderBytes(bytes: bytes)
        let header = try parse(&source, name: name)
        try refuseOversize(header, name: name, maxPixels: maxPixels)
        return header
    }

    /// The header's format and declared size, not yet checked against any cap.
    static func parse(_ source: inout HeaderBytes, name: String) throws(PickerError) -> ImageHeader {
        let head = Array(source.prefix.prefix(FormatSniffer.bytesNeeded))[...]
        guard let codec = ImageCodecs.all.first(where: { $0.sniff(head) }) else {
            if let e = source.readError {
                throw PickerError(.ioError, "cannot read '\(name)': \(e.errno)")
            }
            throw PickerError(.unsupportedImage, unsupportedMessage(source.prefix, name: name))
        }
        return try parseKnown(codec, &source, format: codec.format, name: name)
    }

    static func parseKnown(_ codec: any ImageCodec.Type, _ source: inout HeaderBytes, format: PhotoFormat,
                           name: String) throws(PickerError) -> ImageHeader {
        do throws(HeaderParseError) {
            let header = try codec.readHeader(&source)
            guard header.storedWidth > 0, header.storedHeight > 0 else {
                throw HeaderParseError("declares a zero size (\(header.storedWidth)x\(header.storedHeight))")
            }
            return header
        } catch {
            if let e = source.readError {
                throw PickerError(.ioError, "cannot read '\(name)': \(e.errno)")
            }
            if error.unsupported { throw PickerError(.unsupportedImage, "'\(name)' \(error.reason)") }
            throw PickerError(.corruptImage, "'\(name)' is a damaged \(format.displayName) file: \(error.reason)")
        }
    }
}

extension ImageHeaderReader {
    /// Throws `.imageTooLarge` ("'NAME' is too large: …") for a declared size over the cap.
    static func refuseOversize(_ header: ImageHeader, name: String, maxPixels: Int) throws(PickerError) {
        guard let reason = oversizeReason(header, maxPixels: maxPixels) else { return }
        throw PickerError(.imageTooLarge, "'\(name)' is \(reason)")
    }

    /// Why a declared size cannot be listed ("too large: it declares 2147483647x2147483647 pixels,
    /// over the 200 Mpx cap"), or nil when it is within the cap (`maxPixels`, never above the ceiling).
    static func oversizeReason(_ header: ImageHeader, maxPixels: Int) -> String? {
        let cap = min(max(0, maxPixels), PixelCount.maxDeclaredPixels)
        let width = header.storedWidth, height = header.storedHeight
        guard width <= 0 || height <= 0 || PixelCount.pixels(width, height) > cap else { return nil }
        return "too large: it declares \(width)x\(height) pixels, over the \(capText(cap)) Mpx cap"
    }

    /// The cap in megapixels as `--max-megapixels` takes it ("200"; "0.5" for a cap under one).
    private static func capText(_ pixels: Int) -> String {
        pixels % 1_000_000 == 0 ? "\(pixels / 1_000_000)" : "\(Double(pixels) / 1e6)"
    }

    /// Says what the file is when that is cheap to tell (empty, another ISO media file), else that it
    /// is no image we read.
    static func unsupportedMessage(_ prefix: ArraySlice<UInt8>, name: String) -> String {
        if prefix.isEmpty { return "'\(name)' is empty, not an image" }
        let names = ImageCodecs.inputFormats.map(\.displayName).joined(separator: ", ")
        let head = Array(prefix.prefix(12))
        if head.count >= 12, head[4..<8].elementsEqual(Array("ftyp".utf8)) {
            return "'\(name)' is an ISO media file without a HEIF image brand; pickerd reads \(names)"
        }
        return "'\(name)' is not an image pickerd reads (\(names))"
    }
}

/// Why a header could not be read; turned into a `PickerError` naming the file.
struct HeaderParseError: Error {
    var reason: String
    /// True when the file is of a kind pickerd does not read (a plain TIFF sniffed as a possible RAW):
    /// reported as `.unsupportedImage`, "'name' <reason>", not as damage.
    var unsupported = false
    init(_ reason: String, unsupported: Bool = false) {
        self.reason = reason
        self.unsupported = unsupported
    }
}
