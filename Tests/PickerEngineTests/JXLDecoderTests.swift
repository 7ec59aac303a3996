import Foundation
import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// JPEG XL through libjxl: the corpus's `jxl/` files (fixtures: orientation 1 and 6, two broken
/// ones), judged by their manifest display size, by each other (the orientation files hold one
/// picture stored four ways), and by `djxl` (libjxl's own tool) where it is installed.
@Suite struct JXLDecoderTests {
    static let maxPixels = 200_000_000
    static let djxl = "/usr/bin/djxl"
    static let hasDjxl = FileManager.default.isExecutableFile(atPath: djxl)

    static func jxl(expecting expect: String) -> [CorpusEntry] {
        TestCorpus.entries(where: { $0.category == "jxl" && $0.expect == expect },
                           describedAs: "jxl/ file expected to \"\(expect)\"")
    }

    static func has(_ path: String) -> Bool { TestCorpus.entry(path: path) != nil }

    func header(_ entry: CorpusEntry, _ bytes: [UInt8]) throws(PickerError) -> ImageHeader {
        try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
    }

    /// The entry and bytes of `path` (TestCorpus.required knows the formats by their magic bytes,
    /// JPEG XL not among them); records an issue when either is missing.
    func required(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> (CorpusEntry, [UInt8])? {
        guard let entry = TestCorpus.entry(path: path), let bytes = TestCorpus.bytes(entry) else {
            Issue.record("\(path) is not in the corpus", sourceLocation: sourceLocation)
            return nil
        }
        return (entry, bytes)
    }

    func upright(_ path: String) throws -> PixelImage? {
        guard let (entry, bytes) = required(path) else { return nil }
        return try ImageRenderer.decodeUpright(data: bytes, header: try header(entry, bytes), photoName: entry.fileName,
                                               minimumDisplaySize: nil, maxPixels: Self.maxPixels)
    }

    @Test func everyJXLFileIsReadWithItsStoredSizeAndOrientationAndDecodesUpright() throws {
        for entry in Self.jxl(expecting: "decode") {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            let display = try #require(entry.display, "\(entry.path): the manifest gives no display size")
            let header = try header(entry, bytes)
            #expect(header.format == .jxl, "\(entry.path): \(header.format)")
            #expect([header.storedWidth, header.storedHeight] == [entry.width, entry.height],
                    "\(entry.path): stored \(header.storedWidth)x\(header.storedHeight)")
            #expect(header.orientation.rawValue == entry.exif_orientation ?? 1, "\(entry.path): \(header.orientation)")
            #expect([header.displayWidth, header.displayHeight] == display, "\(entry.path): display \(display)")
            let image = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                       minimumDisplaySize: nil, maxPixels: Self.maxPixels)
            #expect([image.width, image.height] == display, "\(entry.path): decoded \(image.size), display \(display)")
        }
    }

    @Test func headerIsReadFromTheFileThroughItsWindow() throws {
        for entry in Self.jxl(expecting: "decode") {
            guard let root = TestCorpus.located?.root, let bytes = TestCorpus.bytes(entry) else { continue }
            let fromFile = try ImageHeaderReader.read(path: root.appendingPathComponent(entry.path).path)
            #expect(fromFile == (try header(entry, bytes)), "\(entry.path)")
        }
    }

    @Test func everyOrientationFileShowsThePictureOfOrientation1() throws {
        guard let reference = try upright("jxl/kif_orientation1.jxl") else { return }
        #expect(reference.size == PixelSize(width: 480, height: 160))
        let others = TestCorpus.entries(where: { $0.path.hasPrefix("jxl/kif_orientation") && $0.exif_orientation != 1 },
                                        describedAs: "jxl/kif_orientation file other than 1")
        for entry in others {
            let image = try #require(try upright(entry.path))
            let diff = try #require(meanAbsoluteDifference(image, reference), "\(entry.path): \(image.size)")
            #expect(diff < 0.5, "\(entry.path) differs from kif_orientation1.jxl by \(diff)/255")
            // Left as stored it must be far off, so the comparison can tell.
            let stored = try ImageDecoder.decode(try #require(TestCorpus.bytes(entry)),
                                                 header: try header(entry, try #require(TestCorpus.bytes(entry))),
                                                 photoName: entry.fileName, storedTarget: nil, maxPixels: Self.maxPixels)
            let asStored = stored.size == reference.size ? meanAbsoluteDifference(stored, reference) : nil
            #expect(asStored.map { $0 > 10 } ?? true, "\(entry.path): stored as upright already (\(asStored ?? 0))")
        }
    }

    @Test func everyBrokenJXLFileIsRefusedAsCorruptNamingThePhoto() throws {
        for entry in Self.jxl(expecting: "reject") {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            #expect(FormatSniffer.sniff(bytes) == .jxl, "\(entry.path) is not sniffed as JPEG XL")
            do {
                let header = try header(entry, bytes)
                let image = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                           minimumDisplaySize: nil, maxPixels: Self.maxPixels)
                Issue.record("\(entry.path) decoded to \(image.size)")
            } catch {
                #expect(error.code == .corruptImage, "\(entry.path): \(error.code) \(error.message)")
                #expect(error.message.contains(entry.fileName), "\(entry.path): \(error.message)")
            }
        }
    }

    @Test func cutShortFilesAreCorruptNotHangs() throws {
        guard let (entry, bytes) = required("jxl/kif_orientation1.jxl") else { return }
        let header = try header(entry, bytes)
        for cut in [bytes.count - 1, bytes.count / 2, 200, 40] {
            do {
                let image = try ImageDecoder.decode(Array(bytes.prefix(cut)), header: header, photoName: entry.fileName,
                                                    storedTarget: nil, maxPixels: Self.maxPixels)
                Issue.record("\(cut) of \(bytes.count) bytes decoded to \(image.size)")
            } catch {
                #expect(error.code == .corruptImage, "\(cut): \(error.message)")
                #expect(error.message.hasPrefix("\(entry.fileName): corrupt JPEG XL data: "), "\(error.message)")
            }
        }
        do {
            let header = try ImageHeaderReader.read(bytes: Array(bytes.prefix(20)), name: entry.fileName)
            Issue.record("a 20-byte prefix gave a header \(header)")
        } catch {
            #expect(error.code == .corruptImage && error.message.contains(entry.fileName), "\(error.message)")
        }
    }

    @Test func pixelCapIsCheckedOnTheBasicInfoBeforeDecoding() throws {
        guard let (entry, bytes) = required("jxl/kif_orientation1.jxl") else { return }
        // A header that understates the size: the C decoder checks libjxl's basic info itself.
        DecoderChecks.capIsCheckedByTheDecoder(bytes, format: .jxl, photoName: entry.fileName, realPixels: 480 * 160)
    }

    @Test func everyJXLFileRendersToExactlyTheFittedSize() throws {
        for entry in Self.jxl(expecting: "decode") {
            guard let bytes = TestCorpus.bytes(entry), let display = entry.display, display.count == 2 else { continue }
            try DecoderChecks.rendersToTheFittedSize(entry, bytes, header: try header(entry, bytes), display: display,
                                                     maxPixels: Self.maxPixels)
        }
    }

    /// A grid cell may stop at the DC pass: the cell must look like one made from the full decode.
    @Test func gridCellsLookLikeCellsOfTheFullDecode() throws {
        for entry in Self.jxl(expecting: "decode") {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            let header = try header(entry, bytes)
            let full = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                      minimumDisplaySize: nil, maxPixels: Self.maxPixels)
            for box in [100, 64] {
                let size = FitTarget(maxWidth: box, maxHeight: box).fittedSize(for: full.size)
                let source = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                             minimumDisplaySize: (size.width, size.height),
                                                             maxPixels: Self.maxPixels, embeddedThumbnail: true)
                let cell = try Resampler.resample(source, to: size)
                let reference = try Resampler.resample(full, to: size)
                let diff = try #require(meanAbsoluteDifference(cell, reference))
                // immich_8bit-sRGB.jxl's 64x48 cell comes from its DC pass (a dense file whose DC covers
                // twice the cell); measured before the density rule: 3.4 for jxlconf_cafe.jxl at 80x100.
                #expect(diff <= 4, "\(entry.path): a \(size) cell differs from the full decode's by \(diff)/255")
                let flipped = try OrientationTransform.apply(.down, to: reference)
                let wrong = try #require(meanAbsoluteDifference(cell, flipped))
                #expect(wrong > diff + 5, "\(entry.path): upside down is as close (\(wrong)) as upright (\(diff))")
            }
        }
    }

    @Test(.enabled(if: has("jxl/immich_8bit-sRGB.jxl"), "needs the full corpus (jxl/immich_8bit-sRGB.jxl)"))
    func aSmallCellStopsAtTheDCPassAndALargerTargetDoesNot() throws {
        guard let (entry, bytes) = required("jxl/immich_8bit-sRGB.jxl") else { return }
        let header = try header(entry, bytes)
        func decoded(_ target: PixelSize?) throws -> PixelImage {
            try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName, storedTarget: target,
                                    maxPixels: Self.maxPixels, embeddedThumbnail: true)
        }
        let full = try decoded(nil)
        // 1440x1080 / 8 = 180x135: covers twice 90x67, not twice 100x75.
        let dc = try decoded(PixelSize(width: 90, height: 67))
        let larger = try decoded(PixelSize(width: 100, height: 75))
        #expect(dc.size == full.size && larger.size == full.size)
        // The DC pass is the 1/8 picture upsampled: close to the full decode, but not the same.
        let dcDiff = try #require(meanAbsoluteDifference(dc, full))
        #expect(dcDiff > 0.5 && dcDiff < 20, "the DC pass differs from the full decode by \(dcDiff)/255")
        #expect(meanAbsoluteDifference(larger, full) == 0, "a target the DC pass does not cover decodes fully")
    }

    @Test(.enabled(if: has("jxl/jxlconf_animation_newtons_cradle.jxl"), "needs the full corpus (newtons_cradle)"))
    func anAnimationShowsItsFirstFrame() throws {
        let first = try #require(try upright("jxl/jxlconf_animation_newtons_cradle.jxl"))
        #expect(first.size == PixelSize(width: 480, height: 360) && first.channels == 4)
        guard Self.hasDjxl, let reference = try djxlReference("jxl/jxlconf_animation_newtons_cradle.jxl") else { return }
        // djxl writes an APNG whose default image is the first frame.
        let diff = try #require(meanAbsoluteDifference(first, reference), "\(first.size) vs \(reference.size)")
        #expect(diff <= 1, "the first frame differs from djxl's by \(diff)/255")
    }

    /// djxl's PNG of `path` (with its iCCP profile, which the PNG decoder applies), decoded.
    func djxlReference(_ path: String) throws -> PixelImage? {
        guard let root = TestCorpus.located?.root else { return nil }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("djxl-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try runChild(Self.djxl, [root.appendingPathComponent(path).path, out.path])
        try #require(run.exitCode == 0, "djxl \(path): \(run)")
        return try PNGDecoder.decode([UInt8](try Data(contentsOf: out)), maxPixels: Self.maxPixels, photoName: out.path)
    }

    @Test(.enabled(if: hasDjxl, "needs djxl (apt-get install libjxl-tools)"))
    func everyJXLFileLooksLikeDjxlOutput() throws {
        for entry in Self.jxl(expecting: "decode") {
            let ours = try #require(try upright(entry.path))
            guard let reference = try djxlReference(entry.path) else { continue }
            let diff = try #require(meanAbsoluteDifference(ours, reference), "\(entry.path): \(ours.size) vs \(reference.size)")
            #expect(diff <= 1.5, "\(entry.path) differs from djxl's output by \(diff)/255")
        }
    }

    static let cjxl = "/usr/bin/cjxl"
    static let hasCjxl = FileManager.default.isExecutableFile(atPath: cjxl)

    /// A 22 Mpx camera JPEG recompressed by cjxl (lossless, seconds): decoded on libjxl's thread
    /// runner (pictures of 4 Mpx and more), it must look like the JPEG itself at pane size.
    @Test(.enabled(if: hasCjxl, "needs cjxl (apt-get install libjxl-tools)"))
    func aRecompressedCameraJPEGLooksLikeTheJPEG() throws {
        let path = "camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"
        guard let root = TestCorpus.located?.root, let jpegBytes = TestCorpus.bytes(path: path) else {
            Issue.record("\(path) is not in the corpus")
            return
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cjxl-\(UUID().uuidString).jxl")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try runChild(Self.cjxl, [root.appendingPathComponent(path).path, out.path, "--num_threads=1"])
        try #require(run.exitCode == 0, "cjxl: \(run)")
        let jxlBytes = [UInt8](try Data(contentsOf: out))
        let jxlHeader = try ImageHeaderReader.read(bytes: jxlBytes, name: "canon.jxl")
        let jpegHeader = try ImageHeaderReader.read(bytes: jpegBytes, name: "canon.jpg")
        #expect(jxlHeader.storedWidth == 5760 && jxlHeader.storedHeight == 3840 && jxlHeader.format == .jxl)
        let fit = FitTarget(maxWidth: 600, maxHeight: 400)
        let ours = try ImageRenderer.fittedUpright(data: jxlBytes, header: jxlHeader, photoName: "canon.jxl", fit: fit,
                                                  maxPixels: Self.maxPixels)
        let jpeg = try ImageRenderer.fittedUpright(data: jpegBytes, header: jpegHeader, photoName: "canon.jpg", fit: fit,
                                                  maxPixels: Self.maxPixels)
        let diff = try #require(meanAbsoluteDifference(ours, jpeg), "\(ours.size) vs \(jpeg.size)")
        #expect(diff <= 2, "the recompressed JPEG differs from the JPEG by \(diff)/255 at \(ours.size)")
    }

    /// kif_orientation1.jxl with an `Exif` box (offset field 0, then TIFF) after its `ftyp` box.
    func withExifBox(_ bytes: [UInt8], _ tiff: [UInt8]) -> [UInt8] {
        let contents: [UInt8] = [0, 0, 0, 0] + tiff
        let size = UInt32(8 + contents.count)
        let box = [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("Exif".utf8) + contents
        return Array(bytes.prefix(32)) + box + Array(bytes.dropFirst(32))
    }

    @Test func theDateComesFromAnExifBoxAndItsOrientationIsIgnored() throws {
        guard let (entry, bytes) = required("jxl/kif_orientation1.jxl") else { return }
        #expect(Array(bytes[16..<20]) == Array("ftyp".utf8) && Array(bytes[36..<40]) == Array("jxlc".utf8))
        let tiff = TIFFBuilder.make(littleEndian: false, orientation: 6, dateTimeOriginal: "2023:04:05 06:07:08")
        let file = withExifBox(bytes, tiff)
        let header = try ImageHeaderReader.read(bytes: file, name: entry.fileName)
        #expect(header.dateTimeOriginal == "2023:04:05 06:07:08")
        // The codestream says orientation 1; the Exif box's 6 does not turn the picture again.
        #expect(header.orientation == .up && header.storedWidth == 480 && header.storedHeight == 160)
        let image = try ImageRenderer.decodeUpright(data: file, header: header, photoName: entry.fileName,
                                                   minimumDisplaySize: nil, maxPixels: Self.maxPixels)
        #expect(image.size == PixelSize(width: 480, height: 160))
        #expect(try self.header(entry, bytes).dateTimeOriginal == nil, "the file itself has no Exif box")
    }

    @Test(.enabled(if: has("jxl/kif_compressed_exif.jxl"), "needs the full corpus (jxl/kif_compressed_exif.jxl)"))
    func aBrotliCompressedExifBoxIsSkipped() throws {
        guard let (entry, bytes) = required("jxl/kif_compressed_exif.jxl") else { return }
        let header = try header(entry, bytes)
        #expect(header.dateTimeOriginal == nil && header.storedWidth == 842 && header.storedHeight == 469)
    }

    @Test func sniffingKnowsTheCodestreamAndTheContainer() {
        #expect(FormatSniffer.sniff([0xFF, 0x0A, 0xFA, 0x1F]) == .jxl)
        #expect(FormatSniffer.sniff(JXLCodec.containerSignature + [0, 0, 0, 0x14]) == .jxl)
        #expect(FormatSniffer.sniff([0xFF, 0x0B, 0, 0]) == nil)
        #expect(FormatSniffer.sniff(Array(JXLCodec.containerSignature.prefix(11))) == nil)
    }
}
