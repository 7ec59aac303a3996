import Foundation
import Testing
@testable import PickerEngine
import PickerProtocol

/// Shared helpers for the Library tests: the image corpus, temporary trees, synthetic images.
enum LibraryTestSupport {
    /// The package root, from this file's path (Tests/PickerEngineTests/<file>).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The corpus folder holding manifest.json, as `TestCorpus` finds it (full corpus or fixtures).
    static let corpusRoot: String? = TestCorpus.located?.root.path

    typealias ManifestFile = CorpusEntry

    /// Every record of the corpus manifest (empty when there is no corpus).
    static let manifest: [CorpusEntry] = TestCorpus.located?.entries ?? []

    // MARK: - Temporary trees

    /// A fresh temporary folder, removed when `body` returns.
    static func withTemporaryTree<R>(_ body: (String) throws -> R) throws -> R {
        let path = NSTemporaryDirectory() + "/pickerd-lib-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }

    static func makeFolder(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    static func write(_ bytes: [UInt8], to path: String, mtime: Int? = nil) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try makeFolder(dir)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw PickerError(.ioError, "cannot write \(path)")
        }
        if let mtime {
            var times = [timespec(tv_sec: mtime, tv_nsec: 0), timespec(tv_sec: mtime, tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, path, &times, 0)
        }
    }

    static func symlink(_ target: String, at path: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    // MARK: - Synthetic images (made by the tests, never checked in)

    /// A minimal JPEG header: SOI, optional APP1 Exif, SOF0 with the size, EOI.
    static func jpeg(width: Int, height: Int, orientation: UInt16? = nil, date: String? = nil) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        if orientation != nil || date != nil {
            let tiff = TIFFBuilder.make(littleEndian: false, orientation: orientation, dateTimeOriginal: date)
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            out += [0xFF, 0xE1] + be16(payload.count + 2) + payload
        }
        out += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        out += [0xFF, 0xD9]
        return out
    }

    /// A minimal PNG header: signature, IHDR (8-bit RGB), IEND.
    static func png(width: Int, height: Int) -> [UInt8] {
        let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + be32(13) + Array("IHDR".utf8) + ihdr + [0, 0, 0, 0]
            + be32(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v) }
}

/// Builds small TIFF/EXIF blocks for parser tests.
enum TIFFBuilder {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]  // 4 bytes, already in the block's byte order (or an offset)
    }

    static func u16(_ v: UInt16, _ le: Bool) -> [UInt8] {
        le ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }

    static func u32(_ v: UInt32, _ le: Bool) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return le ? b.reversed() : b
    }

    static func ifd(_ entries: [Entry], next: UInt32 = 0, _ le: Bool) -> [UInt8] {
        var out = u16(UInt16(entries.count), le)
        for e in entries {
            out += u16(e.tag, le) + u16(e.type, le) + u32(e.count, le) + e.value
        }
        return out + u32(next, le)
    }

    /// Header + IFD0 (Orientation, ExifIFD pointer) + Exif IFD (DateTimeOriginal) + string.
    static func make(littleEndian le: Bool, orientation: UInt16?, dateTimeOriginal: String?) -> [UInt8] {
        var out: [UInt8] = le ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        out += u32(8, le)
        var entries: [Entry] = []
        if let orientation {
            entries.append(Entry(tag: 0x0112, type: 3, count: 1, value: u16(orientation, le) + [0, 0]))
        }
        let ifd0Size = 2 + 12 * (entries.count + (dateTimeOriginal == nil ? 0 : 1)) + 4
        let exifIFDOffset = 8 + ifd0Size
        if dateTimeOriginal != nil {
            entries.append(Entry(tag: 0x8769, type: 4, count: 1, value: u32(UInt32(exifIFDOffset), le)))
        }
        out += ifd(entries, le)
        if let date = dateTimeOriginal {
            let text = Array(date.utf8) + [0]
            let stringOffset = exifIFDOffset + 2 + 12 + 4
            out += ifd([Entry(tag: 0x9003, type: 2, count: UInt32(text.count), value: u32(UInt32(stringOffset), le))], le)
            out += text
        }
        return out
    }
}
