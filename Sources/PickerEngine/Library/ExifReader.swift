import PickerProtocol

/// What pickerd takes from an EXIF block.
public struct ExifInfo: Sendable, Equatable {
    /// Raw value of tag 0x0112 in IFD0, if present (any number; see `orientation`).
    public var rawOrientation: Int?
    /// DateTimeOriginal (tag 0x9003 in the Exif sub-IFD) as written, if present and well-formed.
    public var dateTimeOriginal: String?
    /// What `photoInfo` shows (IFD0 Make/Model, the Exif sub-IFD's exposure and lens); never kept
    /// in the index. A position is never read: only whether the GPS IFD holds a latitude.
    public var camera = ExifCamera()

    /// Makes a result (tests compare against it).
    public init(rawOrientation: Int? = nil, dateTimeOriginal: String? = nil) {
        self.rawOrientation = rawOrientation
        self.dateTimeOriginal = dateTimeOriginal
    }

    /// The orientation to apply: values outside 1...8 (and a missing tag) count as `.up`.
    public var orientation: Orientation { Orientation(exifValue: rawOrientation ?? 1) }
}

/// A pure, bounds-checked parser of a TIFF/EXIF block.
///
/// Damaged EXIF never throws: whatever cannot be read is simply absent from the result.
/// Only IFD0 and the Exif sub-IFD it points to are read, each at most once, so offsets
/// that point back at themselves cannot make it loop.
public enum ExifReader {
    /// Upper bound on the entries read from one IFD (real files have a few dozen).
    static let maxEntriesPerIFD = 1024

    /// Parses `bytes`: a TIFF header ("II*\0" or "MM\0*") and its IFDs, optionally preceded by
    /// the "Exif\0\0" prefix used by JPEG APP1 (and by some WebP and PNG writers).
    /// - Returns: the orientation and capture date found; empty when the block is unreadable.
    public static func parse(_ bytes: [UInt8]) -> ExifInfo {
        bytes.withUnsafeBufferPointer { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Parses an EXIF block held in a raw buffer; see `parse(_:)`.
    public static func parse(_ buffer: UnsafeRawBufferPointer) -> ExifInfo {
        var start = 0
        if buffer.count >= 6, buffer[0] == 0x45, buffer[1] == 0x78, buffer[2] == 0x69,
           buffer[3] == 0x66, buffer[4] == 0 {
            start = 6  // "Exif\0" + one pad byte
        }
        guard let tiff = TIFFView(UnsafeRawBufferPointer(rebasing: buffer[start...])) else {
            return ExifInfo()
        }
        var info = ExifInfo()
        guard let ifd0 = tiff.u32(at: 4) else { return info }
        var exifIFD: Int?, gpsIFD: Int?
        tiff.forEachEntry(ofIFDAt: Int(ifd0)) { tag, type, count, field in
            switch tag {
            case 0x0112 where info.rawOrientation == nil && count >= 1:
                if type == 3, let v = tiff.u16(at: field) { info.rawOrientation = Int(v) }
                if type == 4, let v = tiff.u32(at: field) { info.rawOrientation = Int(v) }
            case 0x8769 where exifIFD == nil && (type == 4 || type == 13) && count >= 1:
                if let v = tiff.u32(at: field) { exifIFD = Int(v) }
            case 0x8825 where gpsIFD == nil && (type == 4 || type == 13) && count >= 1:
                if let v = tiff.u32(at: field) { gpsIFD = Int(v) }
            case 0x010F where type == 2: info.camera.make = tiff.ascii(count: count, field: field) ?? ""
            case 0x0110 where type == 2: info.camera.model = tiff.ascii(count: count, field: field) ?? ""
            default:
                break
            }
        }
        if let exifIFD, exifIFD != Int(ifd0) {
            tiff.forEachEntry(ofIFDAt: exifIFD) { tag, type, count, field in
                if tag == 0x9003, type == 2, info.dateTimeOriginal == nil {
                    info.dateTimeOriginal = tiff.ascii(count: count, field: field).flatMap(ExifDateTime.normalized)
                }
                info.camera.read(tag, type, count, field, tiff)
            }
        }
        if let gpsIFD, gpsIFD != Int(ifd0), gpsIFD != exifIFD {
            tiff.forEachEntry(ofIFDAt: gpsIFD) { tag, _, count, _ in
                if tag == 0x0002 && count == 3 { info.camera.hasGPS = true }  // GPSLatitude: never read
            }
        }
        return info
    }
}

extension ExifReader {
    /// Where the JPEG thumbnail of IFD1 (tags 0x0201 offset, 0x0202 length) lies in `buffer`
    /// (offsets into `buffer`, "Exif\0\0" prefix included), or nil when there is none wholly inside.
    public static func thumbnailRange(_ buffer: UnsafeRawBufferPointer) -> Range<Int>? {
        var start = 0
        if buffer.count >= 6, buffer[0] == 0x45, buffer[1] == 0x78, buffer[2] == 0x69,
           buffer[3] == 0x66, buffer[4] == 0 {
            start = 6
        }
        guard let tiff = TIFFView(UnsafeRawBufferPointer(rebasing: buffer[start...])),
              let ifd0 = tiff.u32(at: 4), let entries = tiff.u16(at: Int(ifd0)),
              let ifd1 = tiff.u32(at: Int(ifd0) + 2 + 12 * Int(entries)), ifd1 != ifd0, ifd1 != 0 else { return nil }
        var offset: Int?, length: Int?
        tiff.forEachEntry(ofIFDAt: Int(ifd1)) { tag, type, count, field in
            guard count == 1, type == 4 || type == 3 else { return }
            let value = type == 4 ? tiff.u32(at: field).map(Int.init) : tiff.u16(at: field).map(Int.init)
            if tag == 0x0201 { offset = value }
            if tag == 0x0202 { length = value }
        }
        guard let offset, let length, offset >= 8, length > 0, offset <= tiff.bytes.count - length else { return nil }
        return (start + offset)..<(start + offset + length)
    }
}

/// The camera and exposure fields of an EXIF block ("" and nil when absent).
public struct ExifCamera: Sendable, Equatable {
    public var make = ""
    public var model = ""
    public var lens = ""
    public var exposureTime: PhotoDetails.Rational?
    public var fNumber: PhotoDetails.Rational?
    public var focalLength: PhotoDetails.Rational?
    public var iso: Int?
    /// ColorSpace (0xA001): 1 is sRGB, 0xFFFF uncalibrated.
    public var colourSpace: Int?
    public var hasGPS = false

    public init() {}

    /// One entry of the Exif sub-IFD.
    fileprivate mutating func read(_ tag: UInt16, _ type: UInt16, _ count: Int, _ field: Int, _ tiff: TIFFView) {
        switch tag {
        case 0x829A where type == 5: exposureTime = tiff.rational(field: field)
        case 0x829D where type == 5: fNumber = tiff.rational(field: field)
        case 0x920A where type == 5: focalLength = tiff.rational(field: field)
        case 0x8827 where type == 3: iso = tiff.u16(at: field).map(Int.init).flatMap { $0 > 0 ? $0 : nil }
        case 0x8827 where type == 4: iso = tiff.u32(at: field).map(Int.init).flatMap { $0 > 0 ? $0 : nil }
        case 0xA001 where type == 3: colourSpace = tiff.u16(at: field).map(Int.init)
        case 0xA434 where type == 2: lens = tiff.ascii(count: count, field: field) ?? ""
        default: break
        }
    }
}

/// Bounds-checked reads from a TIFF block in either byte order.
private struct TIFFView {
    /// A RATIONAL (two u32) at the offset stored in the entry's field; nil with a zero denominator.
    func rational(field: Int) -> PhotoDetails.Rational? {
        guard let offset = u32(at: field), let n = u32(at: Int(offset)), let d = u32(at: Int(offset) + 4), d != 0 else {
            return nil
        }
        return PhotoDetails.Rational(n, d)
    }

    let bytes: UnsafeRawBufferPointer
    let littleEndian: Bool

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x49, bytes[1] == 0x49, bytes[2] == 0x2A, bytes[3] == 0 {
            littleEndian = true
        } else if bytes[0] == 0x4D, bytes[1] == 0x4D, bytes[2] == 0, bytes[3] == 0x2A {
            littleEndian = false
        } else {
            return nil
        }
        self.bytes = bytes
    }

    func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return littleEndian ? (a | b << 8) : (a << 8 | b)
    }

    func u32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let a = UInt32(bytes[offset]), b = UInt32(bytes[offset + 1])
        let c = UInt32(bytes[offset + 2]), d = UInt32(bytes[offset + 3])
        return littleEndian ? (a | b << 8 | c << 16 | d << 24) : (a << 24 | b << 16 | c << 8 | d)
    }

    /// Calls `body(tag, type, count, valueFieldOffset)` for each entry of the IFD at `offset`
    /// that lies wholly inside the block.
    func forEachEntry(ofIFDAt offset: Int, _ body: (UInt16, UInt16, Int, Int) -> Void) {
        guard offset >= 8, let declared = u16(at: offset) else { return }
        let fitting = (bytes.count - offset - 2) / 12
        let count = min(Int(declared), fitting, ExifReader.maxEntriesPerIFD)
        guard count > 0 else { return }
        for i in 0..<count {
            let entry = offset + 2 + 12 * i
            guard let tag = u16(at: entry), let type = u16(at: entry + 2),
                  let n = u32(at: entry + 4) else { return }
            body(tag, type, Int(n), entry + 8)
        }
    }

    /// An ASCII value of `count` bytes, inline when it fits in 4 bytes, else at the offset stored there.
    func ascii(count: Int, field: Int) -> String? {
        guard count > 0, count <= 64 else { return nil }
        let start: Int
        if count <= 4 {
            start = field
        } else {
            guard let offset = u32(at: field) else { return nil }
            start = Int(offset)
        }
        guard start >= 0, start <= bytes.count - count else { return nil }
        var chars: [UInt8] = []
        for i in 0..<count {
            let c = bytes[start + i]
            if c == 0 { break }
            chars.append(c)
        }
        return String(validating: chars, as: UTF8.self)
    }
}
