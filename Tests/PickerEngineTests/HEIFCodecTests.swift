import Foundation
import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// HEIC and AVIF through libheif: the corpus's `heic/` and `avif/` files (their manifest says
/// `decode (future)`, which means `decode` now that the formats are read), judged by their
/// upright display size, by the sRGB reference made alongside the AVIF files, and by
/// `heif-convert` (libheif's own tool, which applies the HEIF transforms) where it is installed.
@Suite struct HEIFCodecTests {
    static let maxPixels = 200_000_000
    static let heifConvert = "/usr/bin/heif-convert"
    static let hasHeifConvert = FileManager.default.isExecutableFile(atPath: heifConvert)

    /// The corpus's HEIF files that must decode (manifest `decode (future)`, category heic or avif).
    static func decodable() -> [CorpusEntry] {
        TestCorpus.entries(where: { ($0.category == "heic" || $0.category == "avif") && $0.expect == "decode (future)" },
                           describedAs: "HEIF file to decode (heic/ or avif/, expect \"decode (future)\")")
    }

    func header(_ entry: CorpusEntry, _ bytes: [UInt8]) throws -> ImageHeader {
        try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
    }

    @Test func everyHEIFFileIsReadAsHEICOrAVIFUprightAtItsDisplaySize() throws {
        for entry in Self.decodable() {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            let display = try #require(entry.display, "\(entry.path): the manifest gives no display size")
            let header = try header(entry, bytes)
            #expect(header.format == (entry.category == "avif" ? .avif : .heic), "\(entry.path): \(header.format)")
            // libheif applies irot/imir/clap: the header is upright and EXIF orientation is ignored.
            #expect(header.orientation == .up, "\(entry.path): orientation \(header.orientation)")
            #expect([header.displayWidth, header.displayHeight] == display,
                    "\(entry.path): header \(header.displayWidth)x\(header.displayHeight), display \(display)")
            let image = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                       minimumDisplaySize: nil, maxPixels: Self.maxPixels)
            #expect([image.width, image.height] == display, "\(entry.path): decoded \(image.size), display \(display)")
            #expect(image.pixels.count == image.width * image.height * image.channels)
        }
    }

    @Test func everyHEIFFileRendersToExactlyTheFittedSize() throws {
        for entry in Self.decodable() {
            guard let bytes = TestCorpus.bytes(entry), let display = entry.display, display.count == 2 else { continue }
            try DecoderChecks.rendersToTheFittedSize(entry, bytes, header: try header(entry, bytes), display: display,
                                                     maxPixels: Self.maxPixels)
        }
    }

    /// The reference PNG, and the file decoded and resampled to the reference's size (turned by `turn`).
    func compareWithReference(_ path: String) throws -> (decoded: PixelImage, reference: PixelImage)? {
        guard let (entry, bytes, _) = TestCorpus.required(path),
              let (_, refBytes, _) = TestCorpus.required("avif/reference-srgb.png") else { return nil }
        let reference = try PNGDecoder.decode(refBytes, maxPixels: Self.maxPixels, photoName: "reference-srgb.png")
        let header = try header(entry, bytes)
        let decoded = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                     minimumDisplaySize: nil, maxPixels: Self.maxPixels)
        return (decoded, reference)
    }

    static let hasReference = TestCorpus.entry(path: "avif/reference-srgb.png") != nil

    @Test(.enabled(if: hasReference, "needs the full corpus (avif/reference-srgb.png)"))
    func avifMatchesItsSRGBReference() throws {
        guard let (decoded, reference) = try compareWithReference("avif/photo.avif") else { return }
        let diff = try #require(meanAbsoluteDifference(decoded, reference), "size \(decoded.size) vs \(reference.size)")
        #expect(diff <= 4, "photo.avif differs from reference-srgb.png by \(diff)/255")
    }

    @Test func avifWithIrot90IsTurnedAnticlockwiseExactlyOnce() throws {
        guard let (plainEntry, plainBytes, _) = TestCorpus.required("avif/photo.avif"),
              let (entry, bytes, _) = TestCorpus.required("avif/photo-irot90.avif") else { return }
        let plain = try ImageRenderer.decodeUpright(data: plainBytes, header: try header(plainEntry, plainBytes),
                                                   photoName: plainEntry.fileName, minimumDisplaySize: nil,
                                                   maxPixels: Self.maxPixels)
        let decoded = try ImageRenderer.decodeUpright(data: bytes, header: try header(entry, bytes),
                                                     photoName: entry.fileName, minimumDisplaySize: nil,
                                                     maxPixels: Self.maxPixels)
        // EXIF orientation 8 turns a stored picture 90° anticlockwise: the plain file as the irot one must look.
        let turned = try OrientationTransform.apply(.left, to: plain)
        let diff = try #require(meanAbsoluteDifference(decoded, turned), "size \(decoded.size) vs \(turned.size)")
        #expect(diff <= 2, "photo-irot90.avif differs from photo.avif turned anticlockwise by \(diff)/255")
        // Turned the other way it must be far off, so the test can tell.
        let wrong = try OrientationTransform.apply(.right, to: plain)
        let wrongDiff = try #require(meanAbsoluteDifference(decoded, wrong))
        #expect(wrongDiff > 20, "the picture looks the same turned either way (\(wrongDiff)/255)")
    }

    @Test(.enabled(if: hasHeifConvert, "needs heif-convert (apt-get install libheif-examples)"))
    func heicFilesLookLikeHeifConvertOutput() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("heifref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for entry in Self.decodable() where entry.category == "heic" {
            guard let bytes = TestCorpus.bytes(entry), let root = TestCorpus.located?.root else { continue }
            let out = dir.appendingPathComponent(entry.fileName + ".png").path
            let run = try runChild(Self.heifConvert, [root.appendingPathComponent(entry.path).path, out])
            try #require(run.exitCode == 0, "heif-convert \(entry.path): \(run)")
            // With several top-level images heif-convert numbers its outputs; the first is the primary.
            let numbered = dir.appendingPathComponent(entry.fileName + "-1.png").path
            let written = FileManager.default.fileExists(atPath: out) ? out : numbered
            let refBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: written)))
            let reference = try PNGDecoder.decode(refBytes, maxPixels: Self.maxPixels, photoName: out)
            let header = try header(entry, bytes)
            // Full size: the same pixels as libheif's own tool (same transforms, same conversion).
            let full = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                      minimumDisplaySize: nil, maxPixels: Self.maxPixels)
            try #require(full.size == reference.size, "\(entry.path): \(full.size) vs heif-convert's \(reference.size)")
            // Compared at a quarter of the size: the sum over 12 Mpx is slow in a debug build.
            let quarter = PixelSize(width: max(1, full.width / 4), height: max(1, full.height / 4))
            let same = try #require(meanAbsoluteDifference(try Resampler.resample(full, to: quarter),
                                                           try Resampler.resample(reference, to: quarter)))
            #expect(same <= 1, "\(entry.path) differs from heif-convert's output by \(same)/255")
            // A grid cell: may come from the embedded thumbnail (a lossy preview of the same
            // picture), so a looser bound; turned the wrong way it is far off.
            let fit = FitTarget(maxWidth: 160, maxHeight: 160)
            let size = fit.fittedSize(for: reference.size)
            let source = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                         minimumDisplaySize: (size.width, size.height),
                                                         maxPixels: Self.maxPixels, embeddedThumbnail: true)
            let cell = try Resampler.resample(source, to: size)
            let theirs = try Resampler.resample(reference, to: size)
            let diff = try #require(meanAbsoluteDifference(cell, theirs), "\(entry.path): \(cell.size) vs \(theirs.size)")
            #expect(diff <= 10, "\(entry.path) at \(cell.size) differs from heif-convert's output by \(diff)/255")
            let flipped = try OrientationTransform.apply(.down, to: theirs)
            let wrong = try #require(meanAbsoluteDifference(cell, flipped))
            #expect(wrong > diff + 10, "\(entry.path): upside down is as close (\(wrong)) as upright (\(diff))")
        }
    }

    @Test func smallTargetsDecodeTheWholePictureShrunkWhenThereIsNoThumbnail() throws {
        guard let (entry, bytes, _) = TestCorpus.required("heic/libheif_rainbow-451x461.heic") else { return }
        let full = try ImageDecoder.decode(bytes, header: try header(entry, bytes), photoName: entry.fileName,
                                           storedTarget: PixelSize(width: 20, height: 20), maxPixels: Self.maxPixels,
                                           embeddedThumbnail: true)
        // No thumbnail: the whole picture, box-shrunk by 8 on load (451x461 to 57x58).
        #expect(full.size == PixelSize(width: 57, height: 58))
    }

    @Test(.enabled(if: hasLibheifExample, "needs the full corpus (heic/libheif_example.heic)"))
    func smallTargetsUseLibheifExamplesThumbnail() throws {
        guard let (example, exampleBytes, _) = TestCorpus.required("heic/libheif_example.heic") else { return }
        let header = try header(example, exampleBytes)
        let small = try ImageDecoder.decode(exampleBytes, header: header, photoName: example.fileName,
                                            storedTarget: PixelSize(width: 100, height: 67), maxPixels: Self.maxPixels,
                                            embeddedThumbnail: true)
        #expect(small.width < 1280 && small.width >= 100 && small.height >= 67, "thumbnail \(small.size)")
        let ratio = (Double(small.width) / Double(small.height)) / (1280.0 / 854.0)
        #expect(abs(ratio - 1) < 0.01, "thumbnail \(small.size) has another aspect ratio")
        let big = try ImageDecoder.decode(exampleBytes, header: header, photoName: example.fileName,
                                          storedTarget: PixelSize(width: 1000, height: 667), maxPixels: Self.maxPixels,
                                          embeddedThumbnail: true)
        #expect(big.size == PixelSize(width: 1280, height: 854), "a target above the thumbnail decodes the picture")
    }

    @Test func pixelCapIsCheckedOnTheDeclaredSizeBeforeDecoding() throws {
        guard let (entry, bytes, _) = TestCorpus.required("heic/libheif_rainbow-451x461.heic") else { return }
        // A header that understates the size: the C decoder checks the container's own size.
        DecoderChecks.capIsCheckedByTheDecoder(bytes, format: .heic, photoName: entry.fileName, realPixels: 451 * 461)
    }

    @Test func damagedHEIFGivesCorruptOrUnsupportedNamingTheFile() throws {
        guard let (entry, bytes, _) = TestCorpus.required("heic/libheif_rainbow-451x461.heic") else { return }
        let header = try header(entry, bytes)
        for cut in [bytes.count / 2, bytes.count - 100, 200] {
            do {
                let image = try ImageDecoder.decode(Array(bytes.prefix(cut)), header: header, photoName: entry.fileName,
                                                    storedTarget: nil, maxPixels: Self.maxPixels)
                Issue.record("\(cut) of \(bytes.count) bytes decoded to \(image.size)")
            } catch {
                #expect([.corruptImage, .unsupportedImage].contains(error.code), "\(cut): \(error.message)")
                #expect(error.message.hasPrefix("\(entry.fileName): "), "\(error.message)")
            }
        }
    }

    @Test func sniffingTellsAVIFFromHEICByBrand() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let size = 16 + 4 * compatible.count
            var bytes: [UInt8] = [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
            for brand in compatible { bytes += Array(brand.utf8) }
            return bytes + [0, 0, 0, 8] + Array("meta".utf8)
        }
        #expect(FormatSniffer.sniff(ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(FormatSniffer.sniff(ftyp("mif1", ["mif1", "avif", "miaf"])) == .avif)
        #expect(FormatSniffer.sniff(ftyp("avif", [])) == .avif)
        #expect(FormatSniffer.sniff(ftyp("isom", ["mp41"])) == nil, "an MP4 is no photo")
        #expect(FormatSniffer.sniff(Array(ftyp("heic", []).prefix(10))) == nil)
    }

    // MARK: - Files made by libheif's own encoder (heif-enc, libheif-examples)

    static let heifEnc = "/usr/bin/heif-enc"
    static let hasHeifEnc = FileManager.default.isExecutableFile(atPath: heifEnc)

    /// `source` (a corpus file) encoded by heif-enc with `arguments`; the HEIF file's bytes.
    func encoded(_ source: String, _ arguments: [String]) throws -> [UInt8]? {
        guard let root = TestCorpus.located?.root, TestCorpus.required(source) != nil else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("heifenc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.heic").path
        let run = try runChild(Self.heifEnc, arguments + [root.appendingPathComponent(source).path, "-o", out])
        try #require(run.exitCode == 0, "heif-enc \(source): \(run)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test(.enabled(if: hasHeifEnc, "needs heif-enc (apt-get install libheif-examples)"))
    func tenBitHEICWithAlphaDecodesTo8BitRGBA() throws {
        // A 16-bit RGBA PNG: heif-enc writes 10-bit HEVC with an alpha plane.
        let source = "pngsuite/basi6a16.png"
        guard let bytes = try encoded(source, []), let (_, png, _) = TestCorpus.required(source) else { return }
        let header = try ImageHeaderReader.read(bytes: bytes, name: "ten-bit.heic")
        #expect(header.format == .heic && header.storedWidth == 32 && header.storedHeight == 32)
        let image = try ImageDecoder.decode(bytes, header: header, photoName: "ten-bit.heic", storedTarget: nil,
                                            maxPixels: Self.maxPixels)
        let reference = try PNGDecoder.decode(png, maxPixels: Self.maxPixels, photoName: source)
        #expect(image.channels == 4 && reference.channels == 4)
        let rgb = try #require(meanAbsoluteDifference(image, reference))
        #expect(rgb <= 10, "10-bit HEIC differs from its 16-bit source by \(rgb)/255")
        var alpha = 0
        for i in stride(from: 3, to: image.pixels.count, by: 4) { alpha += abs(Int(image.pixels[i]) - Int(reference.pixels[i])) }
        #expect(Double(alpha) / Double(32 * 32) <= 4, "alpha differs by \(Double(alpha) / 1024)/255")
    }

    @Test(.enabled(if: hasHeifEnc, "needs heif-enc (apt-get install libheif-examples)"))
    func embeddedThumbnailServesTargetsItCoversAndOnlyThose() throws {
        guard let bytes = try encoded("exif-orientation/Landscape_1.jpg", ["-t", "320"]) else { return }
        let header = try ImageHeaderReader.read(bytes: bytes, name: "thumb.heic")
        #expect(header.displayWidth == 1800 && header.displayHeight == 1200)
        func decoded(_ w: Int, _ h: Int, thumbnail: Bool = true) throws -> PixelSize {
            try ImageDecoder.decode(bytes, header: header, photoName: "thumb.heic", storedTarget: PixelSize(width: w, height: h),
                                    maxPixels: Self.maxPixels, embeddedThumbnail: thumbnail).size
        }
        // heif-enc's 320-px thumbnail is 320x212: 0.6 % off the picture's 3:2, inside the 1 % allowed.
        #expect(try decoded(150, 100) == PixelSize(width: 320, height: 212))
        #expect(try decoded(320, 212) == PixelSize(width: 320, height: 212))
        // Else the picture, box-shrunk on load as JPEG would be (at least twice the target left).
        #expect(try decoded(321, 214) == PixelSize(width: 900, height: 600), "a thumbnail smaller than the target is not used")
        #expect(try decoded(150, 100, thumbnail: false) == PixelSize(width: 450, height: 300), "only grid cells ask for it")
        let cell = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: "thumb.heic",
                                                   fit: FitTarget(maxWidth: 120, maxHeight: 120), maxPixels: Self.maxPixels)
        #expect(cell.size == PixelSize(width: 120, height: 80))
    }

    @Test func hostileDeclaredSizeIsRefusedAsTooLargeBeforeDecoding() throws {
        guard let (_, original, _) = TestCorpus.required("avif/photo.avif") else { return }
        // Rewrite the ispe property to declare 60000x60000 (3.6 Gpx) in a 144 KB file.
        var bytes = original
        let ispe = Array("ispe".utf8)
        let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 4)]) == ispe })
        for (k, v) in [(8, 60000), (12, 60000)] {
            bytes[at + k] = UInt8(v >> 24); bytes[at + k + 1] = UInt8(v >> 16 & 0xFF)
            bytes[at + k + 2] = UInt8(v >> 8 & 0xFF); bytes[at + k + 3] = UInt8(v & 0xFF)
        }
        let header = try ImageHeaderReader.read(bytes: bytes, name: "bomb.avif")
        #expect(header.storedWidth == 60000 && header.storedHeight == 60000, "the header reports what is declared")
        let lying = ImageHeader(format: .avif, storedWidth: 100, storedHeight: 100)
        for h in [header, lying] {
            do {
                let image = try ImageRenderer.fittedUpright(data: bytes, header: h, photoName: "bomb.avif",
                                                            fit: FitTarget(maxWidth: 64, maxHeight: 64), maxPixels: Self.maxPixels)
                Issue.record("decoded \(image.size)")
            } catch {
                #expect(error.code == .imageTooLarge, "\(error.message)")
                #expect(error.message.hasPrefix("bomb.avif: "))
            }
        }
    }

    static let hasIPhonePhoto = TestCorpus.entry(path: "heic/ianare_iphone_13_pro_max.heic") != nil
    static let hasLibheifExample = TestCorpus.entry(path: "heic/libheif_example.heic") != nil

    @Test(.enabled(if: hasIPhonePhoto, "needs the full corpus (heic/ianare_iphone_13_pro_max.heic)"))
    func heicCaptureDateComesFromItsExifItem() throws {
        guard let (entry, bytes, _) = TestCorpus.required("heic/ianare_iphone_13_pro_max.heic") else { return }
        #expect(try header(entry, bytes).dateTimeOriginal == "2022:02:16 12:55:41")
    }

    @Test func heifFileCutShortAfterItsSizeWasTakenGivesAnErrorNotACrash() throws {
        // libheif aborts the process when a read it was promised fails; the reader must give it
        // zeros instead. A file that shrinks between fstat and pread (rewritten while scanned).
        guard let (_, bytes, _) = TestCorpus.required("heic/libheif_rainbow-451x461.heic") else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).heic").path
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        do {
            // The container is in the first half: the header may still be read (the missing
            // pictures are zeros); what must not happen is an abort.
            let header = try ImageHeaderReader.read(fd: fd, fileSize: bytes.count, name: "cut.heic")
            #expect(header.displayWidth == 451 && header.displayHeight == 461)
        } catch {
            #expect([.corruptImage, .ioError].contains(error.code), "\(error.message)")
            #expect(error.message.contains("cut.heic"))
        }
    }
}
