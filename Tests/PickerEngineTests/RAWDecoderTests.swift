import Foundation
import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// Camera RAW through `RAWCodec`: the corpus's `raw/` files (a complete DNG, a cut-off CR3 whose
/// preview is intact, stripped stubs, a damaged RW2; the fixture subset holds the DNG, the CR3 and
/// two stubs), judged against the preview ExifTool extracts on its own, and hostile TIFFs made here.
@Suite struct RAWDecoderTests {
    static let maxPixels = 200_000_000
    static let exiftool = "/usr/bin/exiftool"
    static let hasExiftool = FileManager.default.isExecutableFile(atPath: exiftool)
    static let dng = "raw/photoprism_canon_eos_6d.dng"
    static let cr3 = "raw/nomexif_canon-r6_truncated.cr3"

    func header(_ entry: CorpusEntry, _ bytes: [UInt8]) throws -> ImageHeader {
        try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
    }

    /// ExifTool's `-PreviewImage` of a corpus file, decoded by our JPEG decoder.
    func exiftoolPreview(_ path: String) throws -> PixelImage {
        let root = try #require(TestCorpus.located?.root)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rawpreview-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try runChild("/bin/sh", ["-c", "\"$0\" -b -PreviewImage \"$1\" > \"$2\"", Self.exiftool,
                                           root.appendingPathComponent(path).path, out.path])
        try #require(run.exitCode == 0, "exiftool -PreviewImage \(path): \(run)")
        let bytes = [UInt8](try Data(contentsOf: out))
        return try JPEGDecoder.decode(bytes, maxPixels: Self.maxPixels, photoName: "exiftool preview")
    }

    @Test func dngAndCR3ListTheirDevelopedSizeAndOrientation() throws {
        for path in [Self.dng, Self.cr3] {
            guard let (entry, bytes, _) = TestCorpus.required(path) else { continue }
            let header = try header(entry, bytes)
            #expect(header.format == .raw, "\(path): \(header.format)")
            let listed = PixelSize(width: header.storedWidth, height: header.storedHeight)
            #expect(listed == PixelSize(width: entry.width ?? 0, height: entry.height ?? 0),
                    "\(path): header \(header.storedWidth)x\(header.storedHeight)")
            #expect(header.orientation == Orientation(exifValue: entry.exif_orientation ?? 1))
        }
    }

    /// 600x400 from the largest preview that covers it, exactly the fitted size, and the same
    /// pixels as ExifTool's preview (scaled the same way); turned over it is far off.
    @Test(.enabled(if: hasExiftool, "needs exiftool (apt-get install libimage-exiftool-perl)"))
    func dngAndCR3PanesShowTheirPreviewUpright() throws {
        for path in [Self.dng, Self.cr3] {
            guard let (entry, bytes, _) = TestCorpus.required(path) else { continue }
            let header = try header(entry, bytes)
            let fit = FitTarget(maxWidth: 600, maxHeight: 400)
            let image = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: entry.fileName,
                                                        fit: fit, maxPixels: Self.maxPixels)
            #expect(image.size == PixelSize(width: 600, height: 400), "\(path): \(image.size)")
            let reference = try Resampler.resample(try exiftoolPreview(path), to: image.size)
            let diff = try #require(meanAbsoluteDifference(image, reference))
            #expect(diff <= 3, "\(path) differs from ExifTool's preview by \(diff)/255")
            let upsideDown = try #require(meanAbsoluteDifference(image, try OrientationTransform.apply(.down, to: reference)))
            #expect(upsideDown > diff + 10, "\(path): upside down (\(upsideDown)) as close as upright (\(diff))")
        }
    }

    @Test func theCutOffCR3IsShownAtItsPreviewSizeWhenAskedForFullSize() throws {
        guard let (entry, bytes, _) = TestCorpus.required(Self.cr3) else { return }
        let image = try ImageRenderer.decodeUpright(data: bytes, header: try header(entry, bytes), photoName: entry.fileName,
                                                   minimumDisplaySize: nil, maxPixels: Self.maxPixels)
        // LibRaw 0.20 cannot open CR3: the 1620x1080 PRVW stands in for the 5472x3648 picture.
        #expect(image.size == PixelSize(width: 1620, height: 1080), "\(image.size)")
    }

    /// A complete CR3 keeps a full-size JPEG as its first track's sample; the cut-off one keeps only its
    /// first bytes (past the end: not a preview). Completed here with the PRVW JPEG as that sample.
    @Test func aCR3sFirstTrackJPEGIsAPreviewOnlyWhenItIsInsideTheFile() throws {
        guard let (_, bytes, _) = TestCorpus.required(Self.cr3) else { return }
        var source = InMemoryBytes(data: bytes)
        let cut = try RAWLayout.read(&source, kind: .cr3)
        #expect(cut.previews.count == 2, "THMB and PRVW only: \(cut.previews)")
        // The track sample starts at 336384 (co64) and runs 0x1bdb01 bytes (stsz): put a JPEG there.
        let prvw = try #require(cut.previews.map(\.range).max { $0.count < $1.count })
        let start = 336_384
        var complete = Array(bytes[0..<start]) + Array(bytes[prvw])
        complete += [UInt8](repeating: 0, count: 0x1B_DB01 - prvw.count)
        var whole = InMemoryBytes(data: complete)
        let layout = try RAWLayout.read(&whole, kind: .cr3)
        #expect(layout.previews.map(\.range).contains(start..<(start + 0x1B_DB01)), "\(layout.previews)")
        #expect(RAWPreviewChoice.candidates(layout, data: complete).count == 2, "PRVW and the track JPEG (THMB is 4:3)")
    }

    @Test func gridCellsTakeTheSmallestPreviewThatCoversThem() throws {
        for path in [Self.dng, Self.cr3] {
            guard let (entry, bytes, _) = TestCorpus.required(path) else { continue }
            let header = try header(entry, bytes)
            let cover = FitMath.cover(width: header.displayWidth, height: header.displayHeight,
                                      box: PixelSize(width: 128, height: 128)).scaled
            let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
            let prefix = Array(bytes.prefix(RAWCodec.embeddedThumbnailPrefix))
            let thumb = try #require(RAWCodec.embeddedThumbnail(prefix, stored: stored, covering: cover,
                                                                 maxPixels: Self.maxPixels), "\(path): no cell preview")
            #expect(thumb.width >= cover.width && thumb.height >= cover.height, "\(path): \(thumb.size) for \(cover)")
            // DNG: its 256x171 IFD0 thumbnail covers 192x128 and is the smallest; CR3: its 160x120 THMB
            // is 4:3, not the picture's 3:2, so the 1620x1080 PRVW serves.
            #expect(RAWPreviewChoice.matchesAspect(thumb.size, stored), "\(path): \(thumb.size) is not \(stored)'s shape")
        }
    }

    /// The DNG has no preview as large as the picture: a full-size decode is LibRaw's develop.
    @Test func theDNGDevelopsThroughLibRawAtFullSize() throws {
        guard let (entry, bytes, _) = TestCorpus.required(Self.dng) else { return }
        let header = try header(entry, bytes)
        let image = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                   minimumDisplaySize: nil, maxPixels: Self.maxPixels)
        #expect(image.size == PixelSize(width: 1224, height: 816), "\(image.size)")
        // The develop looks like the camera's preview (colours differ a little: another rendering).
        let small = PixelSize(width: 300, height: 200)
        let preview = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: entry.fileName,
                                                      fit: FitTarget(maxWidth: 300, maxHeight: 200), maxPixels: Self.maxPixels)
        let developed = try Resampler.resample(image, to: small)
        let diff = try #require(meanAbsoluteDifference(developed, preview))
        let turned = try #require(meanAbsoluteDifference(developed, try OrientationTransform.apply(.down, to: preview)))
        #expect(diff < turned / 2, "the develop differs from the preview by \(diff)/255 (turned over: \(turned))")
    }

    /// LibRaw 0.20.2 leaks libjpeg's decompressor on a damaged lossy-DNG tile (the raw fuzz target's
    /// first finding), so every tile must decode here before LibRaw is asked: a tile cut to SOI+EOI is
    /// refused by name, and LibRaw never sees the file.
    @Test func aLossyDNGWithADamagedTileIsRefusedBeforeLibRaw() throws {
        guard let (entry, bytes, _) = TestCorpus.required(Self.dng) else { return }
        var source = InMemoryBytes(data: bytes)
        let layout = try RAWLayout.read(&source, kind: .tiff)
        #expect(layout.kind == .dng && layout.sensorCompression == 34892, "\(layout.kind) \(String(describing: layout.sensorCompression))")
        let tile = try #require(layout.sensorData?.first, "no sensor tiles found")
        var damaged = bytes
        damaged.replaceSubrange(tile.lowerBound..<(tile.lowerBound + 4), with: [0xFF, 0xD8, 0xFF, 0xD9])
        let header = try header(entry, damaged)
        do throws(PickerError) {
            let image = try ImageDecoder.decode(damaged, header: header, photoName: entry.fileName, storedTarget: nil,
                                                maxPixels: Self.maxPixels)
            // The 1024x683 preview may stand in; LibRaw's develop must not have run.
            #expect(image.size == PixelSize(width: 1024, height: 683), "a damaged tile was developed: \(image.size)")
        } catch {
            Issue.record("the preview should stand in for the undevelopable picture: \(error)")
        }
        do throws(PickerError) {
            _ = try RAWDevelop.develop(damaged, layout: layout, storedTarget: nil, maxPixels: Self.maxPixels,
                                       photoName: entry.fileName)
            Issue.record("LibRaw was asked to develop a damaged tile")
        } catch {
            #expect(error.code == .corruptImage && error.message.contains("sensor tile 1 of"), "\(error)")
        }
    }

    /// Stripped stubs and the damaged RW2: a clear error naming the photo, at any size, never a picture.
    @Test func everyRAWTheManifestRejectsIsRefusedWithAClearError() throws {
        let rejects = TestCorpus.entries(where: { $0.category == "raw" && $0.expect == "reject" },
                                         describedAs: "RAW file to reject")
        for entry in rejects {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            let header: ImageHeader
            do throws(PickerError) {
                header = try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
            } catch {
                #expect([.corruptImage, .unsupportedImage].contains(error.code), "\(entry.path): \(error)")
                #expect(error.message.contains(entry.fileName), "\(entry.path): \(error.message)")
                continue
            }
            #expect(header.format == .raw, "\(entry.path): \(header.format)")
            for target in [nil, PixelSize(width: 256, height: 171), PixelSize(width: 8, height: 8)] as [PixelSize?] {
                for cell in [false, true] {
                    #expect(throws: PickerError.self, "\(entry.path) at \(String(describing: target)) must be refused") {
                        _ = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName, storedTarget: target,
                                                    maxPixels: Self.maxPixels, embeddedThumbnail: cell)
                    }
                    do throws(PickerError) {
                        _ = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName, storedTarget: target,
                                                    maxPixels: Self.maxPixels, embeddedThumbnail: cell)
                    } catch {
                        #expect([.corruptImage, .unsupportedImage].contains(error.code), "\(entry.path): \(error)")
                        #expect(error.message.contains(entry.fileName), "\(entry.path): \(error.message)")
                    }
                }
            }
        }
    }

    /// A TIFF in memory: a little-endian header pointing at IFD0, then IFDs where a test puts them.
    struct TIFFBuilder {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]

        mutating func u16(_ v: Int) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        mutating func u32(_ v: Int) { bytes += (0..<4).map { UInt8(v >> ($0 * 8) & 0xFF) } }

        /// An IFD at the end of the bytes (entries: tag, type, count, value), followed by `next`.
        mutating func ifd(_ entries: [(Int, Int, Int, Int)], next: Int = 0) {
            u16(entries.count)
            for (tag, type, count, value) in entries { u16(tag); u16(type); u32(count); u32(value) }
            u32(next)
        }

        /// DNGVersion and a Make: what makes a TIFF a camera RAW to the sniffer and header reader.
        static let camera: [(Int, Int, Int, Int)] = [(0x010F, 7, 4, 0x4E4F4B49), (0xC612, 1, 4, 0x00000401)]
        static let size: [(Int, Int, Int, Int)] = [(0x0100, 4, 1, 4000), (0x0101, 4, 1, 3000)]
    }

    /// Hostile TIFF structures, each refused (a header error or a decode error) quickly.
    static func hostileTIFFs() -> [(String, [UInt8])] {
        var cases: [(String, [UInt8])] = []
        var past = TIFFBuilder()
        past.bytes[4...7] = [0x00, 0xFF, 0xFF, 0xFF]
        past.ifd(TIFFBuilder.camera + TIFFBuilder.size)
        cases.append(("IFD0 offset past the end", past.bytes))
        var manyEntries = TIFFBuilder()
        manyEntries.u16(0xFFFF)
        manyEntries.bytes += [UInt8](repeating: 0, count: 64)
        cases.append(("65535 entries in 64 bytes", manyEntries.bytes))
        var absurd = TIFFBuilder()
        absurd.ifd(TIFFBuilder.camera + TIFFBuilder.size + [
            (0x0106, 3, 1, 32803), (0x0111, 4, 0x3FFF_FFFF, 8), (0x0117, 4, 0x3FFF_FFFF, 8),
            (0x0201, 4, 1, 0xFFFF_FFF0), (0x0202, 4, 1, 0x7FFF_FFFF), (0x014A, 4, 0x1000_0000, 8),
            (0x8769, 4, 1, 0xFFFF_FFFF), (0xC620, 4, 0x7FFF_FFFF, 0xFFFF_FF00),
        ])
        cases.append(("absurd counts and offsets, preview offset+length overflowing", absurd.bytes))
        var loop = TIFFBuilder()
        loop.ifd(TIFFBuilder.camera + TIFFBuilder.size + [(0x014A, 4, 1, 8), (0x8769, 4, 1, 8)], next: 8)
        cases.append(("IFD0 its own next IFD, SubIFD and EXIF IFD", loop.bytes))
        var chain = TIFFBuilder()
        for i in 0..<5000 {
            let here = chain.bytes.count
            chain.ifd(i == 0 ? TIFFBuilder.camera + TIFFBuilder.size : [(0x0100, 4, 1, i)], next: here + (i == 0 ? 54 : 18))
        }
        cases.append(("a chain of 5000 IFDs", chain.bytes))
        var strips = TIFFBuilder()
        strips.ifd(TIFFBuilder.camera + TIFFBuilder.size + [(0x0106, 3, 1, 32803), (0x0111, 4, 1, 0x7FFF_FFF0),
                                                            (0x0117, 4, 1, 0x7FFF_FFF0)])
        cases.append(("sensor strip far past the end", strips.bytes))
        let cr3: [UInt8] = [0, 0, 0, 24] + Array("ftypcrx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8)
            + [0xFF, 0xFF, 0xFF, 0xF0] + Array("moov".utf8) + [0, 0, 0, 1] + Array("uuid".utf8) + [UInt8](repeating: 0xFF, count: 8)
        cases.append(("CR3 boxes larger than the file", cr3))
        return cases
    }

    @Test func hostileContainersAreRefusedQuickly() throws {
        let start = ContinuousClock.now
        for (what, bytes) in Self.hostileTIFFs() {
            #expect(FormatSniffer.sniff(bytes) == .raw, "\(what): not sniffed as RAW")
            let header: ImageHeader
            do throws(PickerError) {
                header = try ImageHeaderReader.read(bytes: bytes, name: "hostile.dng")
            } catch {
                #expect(error.code == .corruptImage && error.message.contains("hostile.dng"), "\(what): \(error)")
                continue
            }
            for target in [nil, PixelSize(width: 64, height: 48)] as [PixelSize?] {
                do throws(PickerError) {
                    let image = try ImageDecoder.decode(bytes, header: header, photoName: "hostile.dng",
                                                        storedTarget: target, maxPixels: 4_000_000)
                    Issue.record("\(what): decoded \(image.size)")
                } catch {
                    #expect([.corruptImage, .unsupportedImage, .imageTooLarge].contains(error.code), "\(what): \(error)")
                    #expect(error.message.contains("hostile.dng"), "\(what): \(error.message)")
                }
            }
        }
        // A generous bound a loaded 2-core machine always meets: each walk is bounded by fixed limits.
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    /// A plain TIFF (a scan: no camera) is still not a format pickerd reads.
    @Test func aPlainTIFFIsUnsupportedNotARAW() throws {
        var tiff = TIFFBuilder()
        tiff.ifd([(0x0100, 3, 1, 2), (0x0101, 3, 1, 2), (0x0102, 3, 1, 8), (0x0103, 3, 1, 1), (0x0106, 3, 1, 2),
                  (0x0111, 4, 1, 8 + 2 + 8 * 12 + 4), (0x0115, 3, 1, 3), (0x0117, 4, 1, 12)])
        tiff.bytes += [UInt8](repeating: 0x80, count: 12)
        do throws(PickerError) {
            let header = try ImageHeaderReader.read(bytes: tiff.bytes, name: "scan.tif")
            Issue.record("a plain TIFF was read as \(header.format)")
        } catch {
            #expect(error.code == .unsupportedImage, "\(error)")
            #expect(error.message.contains("scan.tif") && error.message.contains("TIFF"), "\(error.message)")
        }
    }
}
