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
    func decodeStored(_ entry: CorpusEntry, _ bytes: [UInt8], format: ImageFormat) throws(PickerError) -> PixelImage {
        let header = TestCorpus.header(for: entry, format: format)
        return try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName,
                                       storedTarget: nil, maxPixels: Self.maxPixels)
    }

    @Test func corpusIsFound() {
        if TestCorpus.located == nil {
            print("[DecodeCorpusTests] no corpus: manifest-driven tests ran on nothing")
        }
    }

    @Test func everyDecodableFileDecodesToItsStoredAndDisplaySize() throws {
        let entries = TestCorpus.entries(expecting: ["decode", "decode-as-stored"])
        for entry in entries {
            guard let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: entry.path) else { continue }
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
            guard let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: entry.path) else { continue }
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
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            guard let format = TestCorpus.format(of: bytes, path: entry.path) else {
                // Not JPEG/PNG/WebP at all (broken HEIC): every decoder must refuse it.
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
            guard let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: entry.path) else { continue }
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
            guard let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: entry.path) else { continue }
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
            // ... and by the decoder itself when the header understates the size.
            let start = ContinuousClock.now
            do {
                let lying = ImageHeader(format: format, storedWidth: 1, storedHeight: 1)
                _ = try ImageDecoder.decode(bytes, header: lying, photoName: entry.fileName,
                                            storedTarget: nil, maxPixels: Self.maxPixels)
                Issue.record("\(entry.path) must be refused by the decoder")
            } catch {
                #expect(error.code == .imageTooLarge, "\(entry.path): \(error.message)")
                #expect(error.message.contains(entry.fileName))
            }
            // Refusing is header work only: far below the time a 4 Gpx decode would take.
            #expect(ContinuousClock.now - start < .seconds(2), "\(entry.path) took too long to refuse")
        }
    }

    @Test func lowerPixelCapRefusesOrdinaryPhotos() throws {
        guard let entry = TestCorpus.entries(expecting: ["decode"]).first(where: { ($0.width ?? 0) * ($0.height ?? 0) > 10_000 }),
              let bytes = TestCorpus.bytes(entry),
              let format = TestCorpus.format(of: bytes, path: entry.path) else { return }
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
            guard let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: entry.path) else { continue }
            do {
                let image = try decodeStored(entry, bytes, format: format)
                #expect(image.width == entry.width && image.height == entry.height, "\(entry.path)")
            } catch {
                #expect(error.code == .unsupportedImage, "\(entry.path): \(error.message)")
                #expect(error.message.contains(entry.fileName))
            }
        }
    }

    @Test func heicFilesNeverCrashAnyDecoder() {
        for entry in TestCorpus.entries where entry.category == "heic" || entry.expect == "decode (future)" {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            expectAllDecodersRefuse(bytes, entry)
        }
    }

    func expectAllDecodersRefuse(_ bytes: [UInt8], _ entry: CorpusEntry) {
        for format in ImageFormat.allCases {
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

    func uprightAt(_ path: String, width: Int, height: Int) throws -> PixelImage? {
        guard let entry = TestCorpus.entry(path: path), let bytes = TestCorpus.bytes(entry),
              let format = TestCorpus.format(of: bytes, path: path) else { return nil }
        return try ImageRenderer.fittedUpright(data: bytes, header: TestCorpus.header(for: entry, format: format),
                                               photoName: entry.fileName,
                                               fit: FitTarget(maxWidth: width, maxHeight: height),
                                               maxPixels: Self.maxPixels)
    }

    @Test func landscapeOrientationsAllRenderLikeTheUprightReference() throws {
        guard let reference = try uprightAt("exif-orientation/Landscape_1.jpg", width: 300, height: 200) else {
            print("[DecodeCorpusTests] Landscape set not in corpus: skipped")
            return
        }
        #expect(reference.width == 300 && reference.height == 200)
        for n in 0...8 {
            guard let image = try uprightAt("exif-orientation/Landscape_\(n).jpg", width: 300, height: 200) else { continue }
            let diff = try #require(meanAbsoluteDifference(image, reference), "Landscape_\(n): size \(image.size)")
            #expect(diff < 6, "Landscape_\(n).jpg differs from Landscape_1.jpg by \(diff)/255")
        }
    }

    @Test func hopperWebPOrientationsMatchTheReference() throws {
        guard let reference = try uprightAt("exif-orientation/hopper_reference.webp", width: 128, height: 128) else {
            print("[DecodeCorpusTests] hopper set not in corpus: skipped")
            return
        }
        for n in [3, 6, 8] {
            guard let image = try uprightAt("exif-orientation/hopper_orientation_\(n).webp", width: 128, height: 128) else { continue }
            let diff = try #require(meanAbsoluteDifference(image, reference))
            #expect(diff < 6, "hopper_orientation_\(n).webp differs from the reference by \(diff)/255")
            // Ignoring orientation would be far off: make sure the test can tell.
            let unrotated = try OrientationTransform.apply(Orientation(exifValue: n), to: reference)
            if let wrong = meanAbsoluteDifference(image, unrotated) { #expect(wrong > 20) }
        }
    }

    // MARK: - End to end

    @Test func cameraPhotosRenderToExactlyTheFittedSize() throws {
        for entry in TestCorpus.entries.filter({ $0.category == "camera-photos" }) {
            guard let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: entry.path),
                  let display = entry.display, display.count == 2 else { continue }
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
            guard let entry = TestCorpus.entry(path: path), let bytes = TestCorpus.bytes(entry),
                  let format = TestCorpus.format(of: bytes, path: path), let display = entry.display else { continue }
            for output in ImageFormat.allCases {
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
    @Test func adobeCmykJpegIsNotShownInverted() throws {
        // pil_sample_cmyk: red lettering on black. Inverted CMYK would give a light picture.
        guard let entry = TestCorpus.entry(path: "jpeg-edge/pillow_pil_sample_cmyk.jpg"),
              let bytes = TestCorpus.bytes(entry) else { return }
        let image = try JPEGDecoder.decode(bytes, maxPixels: Self.maxPixels, photoName: entry.fileName)
        let mean = Double(image.pixels.reduce(0) { $0 + Int($1) }) / Double(image.pixels.count)
        #expect(mean < 80, "mean brightness \(mean): CMYK looks inverted")
    }
}
