import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol

/// What `photoInfo` reads from a photo's file beyond the index: its EXIF block (through
/// `ExifReader`) and the name of its colour profile, from the first MiB and the last 256 KiB of
/// the file (where every format here keeps its metadata), never decoding pixels.
enum PhotoDetailsReader {
    static let headBytes = 1 << 20
    static let tailBytes = 256 << 10

    /// The camera fields and the colour profile's name ("" when none is named).
    static func read(_ open: OpenPhoto) throws(PickerError) -> (camera: ExifCamera, profile: String) {
        let head = try open.readPrefix(headBytes)
        var regions = [head]
        if open.status.size > Int64(headBytes) { regions.append(try open.readSuffix(tailBytes)) }
        var camera = ExifCamera()
        var profile = ""
        for bytes in regions {
            if camera == ExifCamera(), let exif = exif(in: bytes) { camera = exif.camera }
            if profile.isEmpty { profile = iccName(in: bytes) ?? pngProfileName(in: bytes) ?? "" }
        }
        if profile.isEmpty, camera.colourSpace == 1 { profile = "sRGB" }
        return (camera, profile)
    }

    /// The EXIF block: a file that is itself TIFF (camera RAW), else the first "Exif\0\0" followed
    /// by a TIFF header (JPEG APP1, PNG, WebP, HEIF), else a bare TIFF header (a JPEG XL Exif box).
    static func exif(in bytes: [UInt8]) -> ExifInfo? {
        if isTIFF(bytes, at: 0) { return ExifReader.parse(bytes) }
        if let at = find(Array("Exif\0\0".utf8), in: bytes, where: { isTIFF(bytes, at: $0 + 6) }) {
            return ExifReader.parse(Array(bytes[(at + 6)...]))
        }
        if let at = find(Array("MM\0*".utf8), in: bytes, where: { _ in true })
            ?? find(Array("II*\0".utf8), in: bytes, where: { _ in true }) {
            return ExifReader.parse(Array(bytes[at...]))
        }
        return nil
    }

    private static func isTIFF(_ b: [UInt8], at i: Int) -> Bool {
        guard i >= 0, i + 4 <= b.count else { return false }
        return (b[i] == 0x49 && b[i + 1] == 0x49 && b[i + 2] == 0x2A && b[i + 3] == 0)
            || (b[i] == 0x4D && b[i + 1] == 0x4D && b[i + 2] == 0 && b[i + 3] == 0x2A)
    }

    /// The first offset of `needle` in `bytes` for which `accept` holds (`memchr` for the first
    /// byte, then `memcmp`: a MiB is searched in microseconds).
    static func find(_ needle: [UInt8], in bytes: [UInt8], where accept: (Int) -> Bool) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        return bytes.withUnsafeBytes { (hay: UnsafeRawBufferPointer) -> Int? in
            needle.withUnsafeBytes { (pin: UnsafeRawBufferPointer) -> Int? in
                guard let base = hay.baseAddress, let p = pin.baseAddress else { return nil }
                var from = 0
                while from <= hay.count - pin.count {
                    let span = hay.count - pin.count - from + 1
                    guard let hit = memchr(base + from, Int32(needle[0]), span) else { return nil }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, p, pin.count) == 0, accept(at) { return at }
                    from = at + 1
                }
                return nil
            }
        }
    }

    /// The description of an uncompressed ICC profile ("acsp" at byte 36 of it): JPEG APP2, WebP
    /// ICCP, HEIF colr. Its `desc` tag, as v2 text or v4 `mluc` (the first record).
    static func iccName(in bytes: [UInt8]) -> String? {
        guard let at = find(Array("acsp".utf8), in: bytes, where: { $0 >= 36 }) else { return nil }
        let icc = Array(bytes[(at - 36)...])
        guard let tags = u32(icc, 128), tags < 256 else { return nil }
        for i in 0..<Int(tags) {
            let entry = 132 + 12 * i
            guard let sig = u32(icc, entry), let offset = u32(icc, entry + 4) else { return nil }
            guard sig == 0x6465_7363 else { continue }  // 'desc'
            return text(icc, Int(offset))
        }
        return nil
    }

    private static func text(_ icc: [UInt8], _ at: Int) -> String? {
        guard let type = u32(icc, at) else { return nil }
        if type == 0x6465_7363, let n = u32(icc, at + 8), n > 0, n < 1024, at + 12 + Int(n) <= icc.count {
            let chars = icc[(at + 12)..<(at + 12 + Int(n))].prefix { $0 != 0 }
            return String(validating: Array(chars), as: UTF8.self).flatMap(nonEmpty)
        }
        if type == 0x6D6C_7563, let length = u32(icc, at + 20), let offset = u32(icc, at + 24), length < 2048 {
            let start = at + Int(offset)
            guard start >= 0, start + Int(length) <= icc.count else { return nil }
            var units: [UInt16] = []
            for k in stride(from: start, to: start + Int(length) - 1, by: 2) { units.append(UInt16(icc[k]) << 8 | UInt16(icc[k + 1])) }
            return String(decoding: units, as: UTF16.self).split(separator: "\0").first.map(String.init).flatMap(nonEmpty)
        }
        return nil
    }

    /// A PNG's iCCP chunk names its (compressed) profile; an sRGB chunk says sRGB.
    static func pngProfileName(in bytes: [UInt8]) -> String? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        if let at = find(Array("iCCP".utf8), in: bytes, where: { _ in true }) {
            let name = bytes[(at + 4)...].prefix(80).prefix { $0 != 0 }
            return String(validating: Array(name), as: UTF8.self).flatMap(nonEmpty)
        }
        return find(Array("sRGB".utf8), in: bytes, where: { _ in true }) == nil ? nil : "sRGB"
    }

    private static func nonEmpty(_ s: String) -> String? {
        let t = s.trimmingCharacters(in: .whitespaces)
        return t.isEmpty ? nil : t
    }

    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }
}
