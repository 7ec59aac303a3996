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
/// A header declaring more than `PixelCount.maxDeclaredPixels` (the highest cap pickerd can be
/// given) is refused here, "too large", so no listing, index row or estimate ever holds it; the
/// configured cap, lower, is checked by the decoder.
public enum ImageHeaderReader {
    /// Largest EXIF block read from a PNG eXIf or WebP EXIF chunk (a JPEG APP1 holds at most 64 KiB).
    static let maxExifBytes = 4 * 1024 * 1024

    /// Reads the header of the file at `path`.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - name: how the file is named in error messages (defaults to `path`).
    /// - Throws: `PickerError` `.unsupportedImage` (no format of `ImageCodecs`), `.corruptImage`
    ///   (damaged header), `.noSuchPhoto` (missing file) or `.ioError`; messages name the file.
    public static func read(path: String, name: String? = nil) throws(PickerError) -> ImageHeader {
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
        return try read(fd: fd, fileSize: size, name: shown)
    }

    /// Reads the header from an open descriptor with `pread` (the file offset is not moved).
    /// - Parameters:
    ///   - fd: a readable descriptor of a regular file.
    ///   - fileSize: the file's size (from `fstat`).
    ///   - name: how the file is named in error messages.
    /// - Throws: as `read(path:name:)`.
    public static func read(fd: Int32, fileSize: Int, name: String) throws(PickerError) -> ImageHeader {
        var source = HeaderBytes(fd: fd, size: fileSize)
        return try parse(&source, name: name)
    }

    /// Reads the header from bytes in memory (tests, or data already loaded).
    /// - Throws: `.unsupportedImage` or `.corruptImage`, naming `name`.
    public static func read(bytes: [UInt8], name: String) throws(PickerError) -> ImageHeader {
        var source = HeaderBytes(bytes: bytes)
        return try parse(&source, name: name)
    }

    static func parse(_ source: inout HeaderBytes, name: String) throws(PickerError) -> ImageHeader {
        let head = Array(source.prefix.prefix(FormatSniffer.bytesNeeded))[...]
        guard let codec = ImageCodecs.all.first(where: { $0.sniff(head) }) else {
            if let e = source.readError {
                throw PickerError(.ioError, "cannot read '\(name)': \(e.errno)")
            }
            throw PickerError(.unsupportedImage, unsupportedMessage(source.prefix, name: name))
        }
        let format = codec.format
        let header = try parseKnown(codec, &source, format: format, name: name)
        try refuseOversize(header, name: name)
        return header
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
    /// Throws `.imageTooLarge` for a declared size beyond any cap (caught apart from parse errors).
    static func refuseOversize(_ header: ImageHeader, name: String) throws(PickerError) {
        guard !PixelCount.isListable(width: header.storedWidth, height: header.storedHeight) else { return }
        throw PickerError(.imageTooLarge, "'\(name)' is too large: it declares \(header.storedWidth)x\(header.storedHeight) "
                          + "pixels, over the \(PixelCount.maxDeclaredPixels / 1_000_000) Mpx pickerd can ever decode")
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
