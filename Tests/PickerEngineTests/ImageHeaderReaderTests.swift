import Foundation
import Testing
@testable import PickerEngine
import PickerProtocol

@Suite("ImageHeaderReader")
struct ImageHeaderReaderTests {
    typealias Support = LibraryTestSupport

    /// Outcomes for which the manifest records a usable stored size that the header must report.
    static let sizedExpectations: Set<String> = [
        "decode", "decode-as-stored", "partial-or-reject", "limit", "unsupported-or-decode",
    ]

    static var sizedFiles: [Support.ManifestFile] {
        Support.manifest.filter { file in
            sizedExpectations.contains(file.expect) && file.width != nil && file.height != nil
                && ["jpg", "jpeg", "png", "webp"].contains((file.path as NSString).pathExtension.lowercased())
        }
    }

    static var heifFiles: [Support.ManifestFile] {
        Support.manifest.filter { $0.category == "heic" || ($0.category == "avif" && $0.expect != "decode") }
    }

    @Test("every displayable corpus file reports the manifest's stored size and orientation", arguments: sizedFiles)
    func corpusFileReportsManifestSizeAndOrientation(_ file: Support.ManifestFile) throws {
        let root = try #require(Support.corpusRoot)
        let header = try ImageHeaderReader.read(path: root + "/" + file.path, name: file.path)
        #expect(header.storedWidth == file.width)
        #expect(header.storedHeight == file.height)
        let expected = file.expect == "decode-as-stored" ? Orientation.up : Orientation(exifValue: file.exif_orientation ?? 1)
        #expect(header.orientation == expected)
        if let display = file.display, display.count == 2 {
            #expect([header.displayWidth, header.displayHeight] == display)
        }
    }

    /// `decode (future)` HEIF files (HEIC/AVIF are read now): upright at the display size, EXIF
    /// orientation ignored (libheif applies irot/imir/clap); broken ones: a named error.
    @Test("HEIF files give their upright display size or a named error", arguments: heifFiles)
    func heifHeaderIsUprightOrRefused(_ file: Support.ManifestFile) throws {
        let root = try #require(Support.corpusRoot)
        do {
            let header = try ImageHeaderReader.read(path: root + "/" + file.path, name: file.path)
            #expect(file.expect == "decode (future)", "\(file.path) must be refused, got \(header)")
            #expect(header.format == (file.category == "avif" ? .avif : .heic))
            #expect(header.orientation == .up)
            #expect([header.displayWidth, header.displayHeight] == file.display)
        } catch {
            #expect(file.expect == "reject", "\(file.path): \(error.message)")
            #expect([.unsupportedImage, .corruptImage].contains(error.code))
            #expect(error.message.contains(file.path))
        }
    }

    @Test func everyCorpusFileGivesAHeaderOrANamedErrorAndMemoryMatchesFile() throws {
        let root = try #require(Support.corpusRoot, "no corpus manifest")
        #expect(!Support.manifest.isEmpty)
        for file in Support.manifest {
            let path = root + "/" + file.path
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let fromFile = Result { () throws(PickerError) in try ImageHeaderReader.read(path: path, name: file.path) }
            let fromMemory = Result { () throws(PickerError) in try ImageHeaderReader.read(bytes: bytes, name: file.path) }
            switch (fromFile, fromMemory) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(file.path)")
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "\(file.path)")
                #expect(a.message.contains(file.path))
                #expect([.unsupportedImage, .corruptImage].contains(a.code), "\(file.path): \(a)")
            default:
                Issue.record("\(file.path): file and memory readers disagree: \(fromFile) vs \(fromMemory)")
            }
        }
    }

    @Test func badExifNeverFailsAJPEG() throws {
        let root = try #require(Support.corpusRoot, "no corpus manifest")
        let badExif = Support.manifest.filter { $0.category == "jpeg-bad-exif" }
        #expect(!badExif.isEmpty, "the corpus has no jpeg-bad-exif file")
        for file in badExif {
            let header = try ImageHeaderReader.read(path: root + "/" + file.path, name: file.path)
            #expect(header.format == .jpeg)
        }
    }

    @Test func formatComesFromBytesNotTheName() throws {
        let png = try ImageHeaderReader.read(bytes: Support.png(width: 3, height: 4), name: "photo.jpg")
        #expect(png.format == .png)
        #expect(png.storedWidth == 3 && png.storedHeight == 4)
        #expect(FormatSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)) == .webp)
        #expect(FormatSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(FormatSniffer.sniff([0xFF, 0xD8]) == .jpeg)
        #expect(FormatSniffer.sniff([0xFF]) == nil)
        #expect(FormatSniffer.sniff([]) == nil)
    }

    @Test func textIsUnsupportedAndNamesTheFile() {
        #expect {
            try ImageHeaderReader.read(bytes: Array("hello, world".utf8), name: "notes.jpg")
        } throws: { error in
            guard let e = error as? PickerError else { return false }
            return e.code == .unsupportedImage && e.message.contains("notes.jpg")
        }
    }

    @Test func jpegWithExifGivesOrientationAndDate() throws {
        let bytes = Support.jpeg(width: 40, height: 30, orientation: 6, date: "2023:04:05 06:07:08")
        let header = try ImageHeaderReader.read(bytes: bytes, name: "a.jpg")
        #expect(header.storedWidth == 40 && header.storedHeight == 30)
        #expect(header.orientation == .right)
        #expect(header.displayWidth == 30 && header.displayHeight == 40)
        #expect(header.dateTimeOriginal == "2023:04:05 06:07:08")
    }

    @Test func jpegMarkerBeyondTheFirstWindowIsFoundByOffset() throws {
        // 5 APP2 segments of ~60 KiB push the SOF past 256 KiB.
        var bytes: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<5 {
            bytes += [0xFF, 0xE2] + Support.be16(60_000) + [UInt8](repeating: 0x41, count: 59_998)
        }
        let tail = Support.jpeg(width: 123, height: 45, orientation: 3)
        bytes += tail.dropFirst(2)
        try Support.withTemporaryTree { dir in
            let path = dir + "/far.jpg"
            try Support.write(bytes, to: path)
            let header = try ImageHeaderReader.read(path: path)
            #expect(header.storedWidth == 123 && header.storedHeight == 45)
            #expect(header.orientation == .down)
        }
    }

    @Test func truncatedJPEGsAndPNGsThrowCorruptNotCrash() throws {
        let jpeg = Support.jpeg(width: 10, height: 10, orientation: 1)
        // A file cut before its size fields are complete has no header to give: each cut must throw.
        let sof = try #require((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }, "no SOF0")
        let png = Support.png(width: 10, height: 10)
        // JPEG: marker, length, precision, height, width (9 bytes from the SOF marker).
        // PNG: signature, IHDR length and type, 13 bytes of IHDR data.
        for (source, complete) in [(jpeg, sof + 9), (png, 8 + 8 + 13)] {
            for cut in 3..<complete {
                do {
                    let header = try ImageHeaderReader.read(bytes: Array(source[0..<cut]), name: "cut")
                    Issue.record("cut at \(cut) of \(source.count) bytes, a header came back: \(header)")
                } catch {
                    #expect([.corruptImage, .unsupportedImage].contains(error.code))
                }
            }
        }
    }

    @Test func zeroSizeIsCorrupt() {
        #expect(throws: PickerError.self) { try ImageHeaderReader.read(bytes: Support.jpeg(width: 0, height: 5), name: "z.jpg") }
        #expect(throws: PickerError.self) { try ImageHeaderReader.read(bytes: Support.png(width: 5, height: 0), name: "z.png") }
    }

    @Test func webpExifWithAndWithoutPrefix() throws {
        for prefix in [[UInt8](), Array("Exif".utf8) + [0, 0]] {
            let exif = prefix + TIFFBuilder.make(littleEndian: true, orientation: 8, dateTimeOriginal: nil)
            let le32 = { (v: Int) -> [UInt8] in [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
            let vp8x: [UInt8] = Array("VP8X".utf8) + le32(10) + [0x08, 0, 0, 0] + [99, 0, 0] + [49, 0, 0]
            let vp8l: [UInt8] = Array("VP8L".utf8) + le32(6) + [0x2F, 0, 0, 0, 0, 0]
            let exifChunk = Array("EXIF".utf8) + le32(exif.count) + exif + (exif.count % 2 == 1 ? [0] : [])
            let body = Array("WEBP".utf8) + vp8x + vp8l + exifChunk
            let file = Array("RIFF".utf8) + le32(body.count) + body
            let header = try ImageHeaderReader.read(bytes: file, name: "x.webp")
            #expect(header.storedWidth == 100 && header.storedHeight == 50)
            #expect(header.orientation == .left)
        }
    }
}
