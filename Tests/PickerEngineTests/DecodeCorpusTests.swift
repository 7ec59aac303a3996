import Foundation
import Testing
import PickerProtocol
@testable import PickerEngine

/// Manifest-driven decoding of the shared corpus (see TestCorpus for where it comes from).
/// Each test walks every file with one expectation, so files it has never seen
/// (the holdout half) are judged by the same rules.
@Suite struct DecodeCorpusTests {
    static let maxPixels = 200_000_000

    /// Full-size decode in stored axes (no shrink), like a viewer at 100 %.
    func decodeStored(_ entry: CorpusEntry, _ bytes: [UInt8], format: PhotoFormat) throws(PickerError) -> PixelImage {
        let header = TestCorpus.header(for: entry, format: format)
        return try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName,
                                       storedTarget: nil, maxPixels: Self.maxPixels)
    }

    @Test func corpusIsFound() throws {
        let corpus = try #require(TestCorpus.located, "no readable corpus manifest: manifest-driven tests would run on nothing")
        #expect(!corpus.entries.isEmpty, "\(corpus.root.path)/manifest.json lists no files")
        let missing = corpus.entries.filter { TestCorpus.bytes($0) == nil }.map(\.path)
        #expect(missing.isEmpty, "files in the manifest but not on disk: \(missing)")
    }

    @Test func everyDecodableFileDecodesToItsStoredAndDisplaySize() throws {
        let entries = TestCorpus.entries(expecting: ["decode", "decode-as-stored"])
        for entry in entries {
            guard let (bytes, format) = Self.decodable(entry) else { continue }
            let asStored = entry.expect == "decode-as-stored"
            do {
                let header = TestCorpus.header(for: entry, format: format, honourOrientation: !asStored)
                let stored = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName,
                                                     storedTarget: nil, maxPixels: Self.maxPixels)
                #expect(stored.width == entry.width && stored.height == entry.height,
                        "\(entry.path): decoded \(stored.size), manifest says \(entry.width ?? -1)x\(entry.height ?? -1)")
                let upright = try OrientationTransform.apply(header.orientation, to: stored)
                if let display = entry.display, display.count == 2 {
                    #expect(upright.width == display[0] && upright.height == display[1],
                            "\(entry.path): upright \(upright.size), manifest display \(display)")
                }
            } catch {
                Issue.record("\(entry.path) (\(entry.expect)) failed: \(error.message)")
            }
        }
    }

    @Test func everyDecodableFileRendersUprightToExactlyTheFittedSize() throws {
        for entry in TestCorpus.entries(expecting: ["decode", "decode-as-stored"]) {
            guard let (bytes, format) = Self.decodable(entry) else { continue }
            let header = TestCorpus.header(for: entry, format: format,
                                           honourOrientation: entry.expect != "decode-as-stored")
            let fit = FitTarget(maxWidth: 64, maxHeight: 48)
            let expected = fit.fittedSize(for: PixelSize(width: header.displayWidth, height: header.displayHeight))
            do {
                let out = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: entry.fileName,
                                                          fit: fit, maxPixels: Self.maxPixels)
                #expect(out.size == expected, "\(entry.path): \(out.size), expected \(expected)")
            } catch {
                Issue.record("\(entry.path) failed to render: \(error.message)")
            }
        }
    }

    @Test func everyRejectedFileFailsWithAnErrorNamingIt() {
        for entry in TestCorpus.entries(expecting: ["reject"]) {
            guard let bytes = TestCorpus.bytes(entry) else { continue }  // recorded by entries(expecting:)
            guard let format = TestCorpus.format(of: bytes, path: entry.path) else {
                // No format we read (a HEIF file with a broken ftyp): every decoder must refuse it.
                expectAllDecodersRefuse(bytes, entry)
                continue
            }
            do {
                let image = try decodeStored(entry, bytes, format: format)
                Issue.record("\(entry.path) must be rejected but decoded to \(image.size)")
            } catch {
                #expect(error.message.contains(entry.fileName), "\(entry.path): message \"\(error.message)\" does not name the file")
                #expect([.corruptImage, .unsupportedImage, .imageTooLarge].contains(error.code),
                        "\(entry.path): unexpected code \(error.code)")
            }
        }
    }

    @Test func partiallyRecoverableFilesFailCleanlyOrDecodeToTheirSize() {
        var rejected = 0, shown = 0
        for entry in TestCorpus.entries(expecting: ["partial-or-reject"]) {
            guard let (bytes, format) = Self.decodable(entry) else { continue }
            do {
                let image = try decodeStored(entry, bytes, format: format)
                shown += 1
                #expect(image.width == entry.width && image.height == entry.height, "\(entry.path)")
            } catch {
                rejected += 1
                #expect(error.message.contains(entry.fileName), "\(entry.path): \(error.message)")
                #expect(error.code == .corruptImage, "\(entry.path): \(error.code)")
            }
        }
        print("[DecodeCorpusTests] partial-or-reject: \(rejected) rejected, \(shown) shown")
    }

    @Test func oversizedFilesAreRefusedBeforeDecoding() {
        for entry in TestCorpus.entries(expecting: ["limit"]) {
            guard let (bytes, format) = Self.decodable(entry) else { continue }
            // Through the header (as the renderer does) ...
            do {
                _ = try ImageRenderer.render(data: bytes, header: TestCorpus.header(for: entry, format: format),
                                             photoName: entry.fileName,
                                             fit: FitTarget(maxWidth: 600, maxHeight: 400),
                                             output: .png, maxPixels: Self.maxPixels)
                Issue.record("\(entry.path) must be refused as too large")
            } catch {
                #expect(error.code == .imageTooLarge, "\(entry.path): \(error.message)")
                #expect(error.message.contains(entry.fileName))
            }
            // ... and by the decoder itself when the header understates the size. (How fast it refuses
            // is measured by `make bench`, not here: a timer in a parallel debug suite flakes.)
            do {
                let lying = ImageHeader(format: format, storedWidth: 1, storedHeight: 1)
                _ = try ImageDecoder.decode(bytes, header: lying, photoName: entry.fileName,
                                            storedTarget: nil, maxPixels: Self.maxPixels)
                Issue.record("\(entry.path) must be refused by the decoder")
            } catch {
                #expect(error.code == .imageTooLarge, "\(entry.path): \(error.message)")
                #expect(error.message.contains(entry.fileName))
            }
        }
    }

    @Test func lowerPixelCapRefusesOrdinaryPhotos() throws {
        let entry = try #require(TestCorpus.entries(expecting: ["decode"]).first { ($0.width ?? 0) * ($0.height ?? 0) > 10_000 },
                                 "the corpus has no decodable file over 10,000 pixels")
        let (bytes, format) = try #require(Self.decodable(entry))
        let header = ImageHeader(format: format, storedWidth: 1, storedHeight: 1)
        #expect(throws: PickerError.self) {
            _ = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName,
                                        storedTarget: nil, maxPixels: 100)
        }
        do {
            _ = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName,
                                        storedTarget: nil, maxPixels: 100)
        } catch {
            #expect(error.code == .imageTooLarge)
        }
    }

    @Test func unsupportedVariantsSayUnsupportedOrDecode() {
        for entry in TestCorpus.entries(expecting: ["unsupported-or-decode"]) {
            guard let (bytes, format) = Self.decodable(entry) else { continue }
            do {
                let image = try decodeStored(entry, bytes, format: format)
                #expect(image.width == entry.width && image.height == entry.height, "\(entry.path)")
            } catch {
                #expect(error.code == .unsupportedImage, "\(entry.path): \(error.message)")
                #expect(error.message.contains(entry.fileName))
            }
        }
    }

    @Test func brokenHEIFFilesAreRefusedByEveryDecoder() {
        let broken = TestCorpus.entries(where: { $0.category == "heic" && $0.expect == "reject" },
                                        describedAs: "broken HEIF file (category heic, expect reject)")
        for entry in broken {
            guard let bytes = TestCorpus.bytes(entry) else { continue }  // recorded by entries(where:)
            expectAllDecodersRefuse(bytes, entry)
        }
    }

    func expectAllDecodersRefuse(_ bytes: [UInt8], _ entry: CorpusEntry) {
        for format in PhotoFormat.known {
            let header = ImageHeader(format: format, storedWidth: entry.width ?? 0, storedHeight: entry.height ?? 0)
            do {
                let image = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName,
                                                    storedTarget: nil, maxPixels: Self.maxPixels)
                Issue.record("\(entry.path) decoded as \(format.displayName) to \(image.size)")
            } catch {
                #expect(error.message.contains(entry.fileName))
            }
        }
    }

    // MARK: - Orientation by pixels

    /// The file rendered upright into width x height; nil (with an issue recorded) when it is missing.
    func uprightAt(_ path: String, width: Int, height: Int) throws -> PixelImage? {
        guard let (entry, bytes, format) = TestCorpus.required(path) else { return nil }
        return try ImageRenderer.fittedUpright(data: bytes, header: TestCorpus.header(for: entry, format: format),
                                               photoName: entry.fileName,
                                               fit: FitTarget(maxWidth: width, maxHeight: height),
                                               maxPixels: Self.maxPixels)
    }

    @Test func landscapeOrientationsAllRenderLikeTheUprightReference() throws {
        let reference = try #require(try uprightAt("exif-orientation/Landscape_1.jpg", width: 300, height: 200))
        #expect(reference.width == 300 && reference.height == 200)
        // The fixtures hold 1, 3, 6 and 8; the full corpus all eight.
        let present = (2...8).filter { TestCorpus.entry(path: "exif-orientation/Landscape_\($0).jpg") != nil }
        #expect(present.count >= 3, "the corpus has only Landscape_\(present) besides Landscape_1")
        for n in present {
            guard let image = try uprightAt("exif-orientation/Landscape_\(n).jpg", width: 300, height: 200) else { continue }
            let diff = try #require(meanAbsoluteDifference(image, reference), "Landscape_\(n): size \(image.size)")
            #expect(diff < 6, "Landscape_\(n).jpg differs from Landscape_1.jpg by \(diff)/255")
        }
    }

    @Test func hopperWebPOrientationsMatchTheReference() throws {
        let reference = try #require(try uprightAt("exif-orientation/hopper_reference.webp", width: 128, height: 128))
        for n in [3, 6, 8] {
            guard let image = try uprightAt("exif-orientation/hopper_orientation_\(n).webp", width: 128, height: 128) else { continue }
            let diff = try #require(meanAbsoluteDifference(image, reference))
            #expect(diff < 6, "hopper_orientation_\(n).webp differs from the reference by \(diff)/255")
            // Ignoring orientation would be far off: make sure the test can tell.
            let unrotated = try OrientationTransform.apply(Orientation(exifValue: n), to: reference)
            let wrong = try #require(meanAbsoluteDifference(image, unrotated), "orientation \(n) keeps the square's size")
            #expect(wrong > 20)
        }
    }

    // MARK: - End to end

    @Test func cameraPhotosRenderToExactlyTheFittedSize() throws {
        for entry in TestCorpus.entries(where: { $0.category == "camera-photos" }, describedAs: "camera photo") {
            guard let (bytes, format) = Self.decodable(entry) else { continue }
            guard let display = entry.display, display.count == 2 else {
                Issue.record("\(entry.path): the manifest gives no display size")
                continue
            }
            let fit = FitTarget(maxWidth: 600, maxHeight: 400)
            let expected = FitMath.fit(width: display[0], height: display[1], maxWidth: 600, maxHeight: 400,
                                       allowUpscale: false)
            let out = try ImageRenderer.render(data: bytes, header: TestCorpus.header(for: entry, format: format),
                                               photoName: entry.fileName, fit: fit, output: .png,
                                               maxPixels: Self.maxPixels)
            #expect(out.width == expected.width && out.height == expected.height, "\(entry.path)")
            let back = try PNGDecoder.decode(out.bytes, maxPixels: Self.maxPixels, photoName: "out.png")
            #expect(back.width == expected.width && back.height == expected.height)
            // No dark border rows/columns from the resampler: each edge line is
            // close to the line just inside it.
            func lineMean(_ horizontal: Bool, _ index: Int) -> Double {
                let count = horizontal ? back.width : back.height
                var total = 0
                for k in 0..<count {
                    let (x, y) = horizontal ? (k, index) : (index, k)
                    let i = (y * back.width + x) * back.channels
                    total += Int(back.pixels[i]) + Int(back.pixels[i + 1]) + Int(back.pixels[i + 2])
                }
                return Double(total) / Double(count * 3)
            }
            for (horizontal, edge, inner) in [(true, 0, 1), (true, back.height - 1, back.height - 2),
                                              (false, 0, 1), (false, back.width - 1, back.width - 2)] {
                #expect(lineMean(horizontal, edge) > lineMean(horizontal, inner) - 12,
                        "\(entry.path): dark edge line")
            }
        }
    }

    @Test func renderingEveryFormatToEveryOutputGivesTheFittedSize() throws {
        let paths = ["exif-orientation/Landscape_6.jpg", "exif-orientation/hopper_orientation_8.webp",
                     "pngsuite/basn6a08.png", "exif-orientation/pillow_orientation_rectangle.jpg"]
        for path in paths {
            guard let (entry, bytes, format) = TestCorpus.required(path) else { continue }
            let display = try #require(entry.display, "\(path): the manifest gives no display size")
            for output in ImageFormat.allCases.filter({ !$0.isTerminalText }) {
                let fit = FitTarget(maxWidth: 97, maxHeight: 61)
                let out = try ImageRenderer.render(data: bytes, header: TestCorpus.header(for: entry, format: format),
                                                   photoName: entry.fileName, fit: fit,
                                                   output: OutputSpec(format: output, quality: 80),
                                                   maxPixels: Self.maxPixels)
                let expected = FitMath.fit(width: display[0], height: display[1], maxWidth: 97, maxHeight: 61,
                                           allowUpscale: false)
                #expect(out.width == expected.width && out.height == expected.height, "\(path) as \(output)")
                #expect(out.format == output && !out.bytes.isEmpty)
            }
        }
    }
}

extension DecodeCorpusTests {
    /// The bytes and sniffed format of an entry whose file exists; records an issue when the
    /// format is not one the decoders know (the manifest says it should decode).
    static func decodable(_ entry: CorpusEntry) -> (bytes: [UInt8], format: PhotoFormat)? {
        guard let bytes = TestCorpus.bytes(entry) else {
            Issue.record("\(entry.path) is missing")
            return nil
        }
        guard let format = TestCorpus.format(of: bytes, path: entry.path) else {
            Issue.record("\(entry.path) (\(entry.expect)) is in no format pickerd reads")
            return nil
        }
        return (bytes, format)
    }

    @Test func adobeCmykJpegIsNotShownInverted() throws {
        // pil_sample_cmyk: red lettering on black. Inverted CMYK would give a light picture.
        let (entry, bytes, _) = try #require(TestCorpus.required("jpeg-edge/pillow_pil_sample_cmyk.jpg"))
        let image = try JPEGDecoder.decode(bytes, maxPixels: Self.maxPixels, photoName: entry.fileName)
        let mean = Double(image.pixels.reduce(0) { $0 + Int($1) }) / Double(image.pixels.count)
        #expect(mean < 80, "mean brightness \(mean): CMYK looks inverted")
    }
}
