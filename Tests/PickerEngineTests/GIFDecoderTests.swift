import Foundation
import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// GIF through giflib (`GIFCodec`, pk_gif.c): the corpus's `gif/` files at their manifest size,
/// pixels against Pillow's first frame, broken files refused; small GIFs made here for the
/// screen/frame geometry and a missing colour table.
@Suite struct GIFDecoderTests {
    static let maxPixels = 200_000_000

    static func gifs(expecting expect: String) -> [CorpusEntry] {
        TestCorpus.entries(where: { $0.category == "gif" && $0.expect == expect },
                           describedAs: "gif/ file expected to \"\(expect)\"")
    }

    func decode(_ bytes: [UInt8], name: String, maxPixels: Int = maxPixels) throws(PickerError) -> PixelImage {
        let header = try ImageHeaderReader.read(bytes: bytes, name: name)
        return try ImageDecoder.decode(bytes, header: header, photoName: name, storedTarget: nil, maxPixels: maxPixels)
    }

    /// The error a decode of `bytes` throws, or nil when it decodes.
    func refusal(_ bytes: [UInt8], name: String, maxPixels: Int = maxPixels) -> PickerError? {
        do throws(PickerError) {
            _ = try decode(bytes, name: name, maxPixels: maxPixels)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Corpus

    @Test func everyDecodableGIFIsReadAsGIFAtItsManifestSize() throws {
        for entry in Self.gifs(expecting: "decode") {
            guard let bytes = TestCorpus.bytes(entry), let display = entry.display else { continue }
            let header = try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
            #expect(header.format == .gif && header.orientation == .up, "\(entry.path): \(header)")
            #expect([header.storedWidth, header.storedHeight] == [entry.width, entry.height],
                    "\(entry.path): header \(header.storedWidth)x\(header.storedHeight)")
            let image = try decode(bytes, name: entry.fileName)
            #expect([image.width, image.height] == display, "\(entry.path): decoded \(image.size), display \(display)")
            let fitted = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: entry.fileName,
                                                         fit: FitTarget(maxWidth: 64, maxHeight: 48), maxPixels: Self.maxPixels)
            #expect(fitted.size == FitTarget(maxWidth: 64, maxHeight: 48).fittedSize(for: image.size), "\(entry.path)")
        }
    }

    @Test func everyRejectedGIFIsRefusedAsCorruptNamingThePhoto() {
        for entry in Self.gifs(expecting: "reject") {
            guard let bytes = TestCorpus.bytes(entry) else { continue }
            let error = refusal(bytes, name: entry.fileName)
            #expect(error?.code == .corruptImage, "\(entry.path): \(error.map { "\($0)" } ?? "decoded")")
            #expect(error?.message.contains(entry.fileName) == true, "\(entry.path): \(error?.message ?? "")")
        }
    }

    @Test func aFrameStickingOutOfTheScreenIsRefusedBeforeItsDataIsRead() throws {
        let (entry, bytes, _) = try #require(TestCorpus.required("gif/imagegif_issue-117-out-of-range.gif"))
        let error = try #require(refusal(bytes, name: entry.fileName))
        #expect(error.message.contains("sticks out of the 3x23850 screen"), "\(error.message)")
    }

    @Test func greyPlusAlphaHasOneOpaqueGreyAndOneTransparentPixel() throws {
        let (entry, bytes, _) = try #require(TestCorpus.required("gif/sharp_grey-plus-alpha.gif"))
        let image = try decode(bytes, name: entry.fileName)
        try #require(image.width == 2 && image.height == 1 && image.channels == 4, "\(image.size)x\(image.channels)")
        let p = image.pixels
        #expect(p[3] == 255 && p[0] == p[1] && p[1] == p[2], "first pixel \(Array(p[0..<4])) is not opaque grey")
        #expect(p[7] == 0, "second pixel \(Array(p[4..<8])) is not transparent")
    }

    @Test(.enabled(if: PillowReference.isAvailable, "needs /usr/bin/python3 with Pillow"))
    func interlacedRowsMatchPillow() throws {
        try expectPillowMatch("gif/imagegif_interlaced.gif")
    }

    @Test(.enabled(if: PillowReference.isAvailable, "needs /usr/bin/python3 with Pillow"))
    func theLocalColourTableIsUsedAndMatchesPillow() throws {
        let (entry, bytes, _) = try #require(TestCorpus.required("gif/oiio_tahoe-tiny.gif"))
        let image = try decode(bytes, name: entry.fileName)
        // The global table has 2 entries: a photo in more colours came from the local table.
        var colours = Set<Int>()
        for i in stride(from: 0, to: image.pixels.count, by: image.channels) {
            colours.insert(Int(image.pixels[i]) << 16 | Int(image.pixels[i + 1]) << 8 | Int(image.pixels[i + 2]))
        }
        #expect(colours.count > 16, "\(colours.count) colours")
        try expectPillowMatch("gif/oiio_tahoe-tiny.gif")
    }

    static let hasAnimations = TestCorpus.entry(path: "gif/sharp_rotating-squares.gif") != nil

    @Test(.enabled(if: hasAnimations && PillowReference.isAvailable, "needs the full corpus and Pillow"))
    func anAnimationShowsItsFirstFrame() throws {
        for path in ["gif/sharp_rotating-squares.gif", "gif/pillow_chi.gif", "gif/pillow_dispose_prev.gif",
                     "gif/vips_dispose-background.gif"] {
            try expectPillowMatch(path)
        }
    }

    /// The decoded picture equals Pillow's first frame (RGBA): alpha everywhere, colour where opaque.
    func expectPillowMatch(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (entry, bytes, _) = try #require(TestCorpus.required(path))
        let image = try decode(bytes, name: entry.fileName)
        let reference = try PillowReference.firstFrameRGBA(bytes)
        try #require(reference.count == image.width * image.height * 4, "\(path): Pillow gave \(reference.count) bytes",
                     sourceLocation: sourceLocation)
        var differing = 0, firstRow = -1
        for i in 0..<(image.width * image.height) {
            let ours = (0..<4).map { c in c < image.channels ? image.pixels[i * image.channels + c] : 255 }
            let theirs = Array(reference[(i * 4)..<(i * 4 + 4)])
            guard ours[3] != theirs[3] || (theirs[3] != 0 && ours[0..<3] != theirs[0..<3]) else { continue }
            differing += 1
            if firstRow < 0 { firstRow = i / image.width }
        }
        #expect(differing == 0, "\(path): \(differing) pixels differ from Pillow, the first in row \(firstRow)",
                sourceLocation: sourceLocation)
    }

    // MARK: - Truncation (cut here from a fixture)

    @Test func aGIFCutShortIsRefusedAsCorrupt() throws {
        let (entry, bytes, _) = try #require(TestCorpus.required("gif/imagegif_interlaced.gif"))
        // Cut in half, inside the last data block, and inside the screen descriptor.
        for length in [bytes.count / 2, bytes.count - 3, 11] {
            let error = refusal(Array(bytes.prefix(length)), name: entry.fileName)
            #expect(error?.code == .corruptImage, "cut at \(length) of \(bytes.count): \(error.map { "\($0)" } ?? "decoded")")
        }
        // Without the trailer (0x3B) the picture is whole: it decodes.
        #expect(bytes.last == 0x3B)
        #expect(refusal(Array(bytes.dropLast()), name: entry.fileName) == nil)
    }

    // MARK: - Hand-made GIFs

    /// A GIF89a with a `screen` of 2x1 and one 1x1 frame of palette index 0 at `frameX`;
    /// the global table is red and green when `palette`.
    static func tinyGIF(frameX: UInt8, palette: Bool = true, signature: String = "GIF89a") -> [UInt8] {
        var b = Array(signature.utf8) + [2, 0, 1, 0, palette ? 0x80 : 0x00, 0, 0]
        if palette { b += [0xFF, 0, 0, 0, 0xFF, 0] }
        b += [0x2C, frameX, 0, 0, 0, 1, 0, 1, 0, 0x00]
        b += [0x02, 0x02, 0x44, 0x01, 0x00]  // LZW, minimum code size 2: clear, 0, end
        return b + [0x3B]
    }

    @Test func aFrameSmallerThanTheScreenIsPlacedAtItsOffsetWithTransparencyAround() throws {
        let image = try decode(Self.tinyGIF(frameX: 1), name: "offset.gif")
        #expect(image.width == 2 && image.height == 1 && image.channels == 4)
        #expect(image.pixels == [0, 0, 0, 0, 0xFF, 0, 0, 0xFF], "\(image.pixels)")
    }

    @Test func aFrameCoveringTheScreenWithoutTransparencyIsRGB() throws {
        var gif = Self.tinyGIF(frameX: 0)
        gif[6] = 1  // a 1x1 screen
        let image = try decode(gif, name: "opaque.gif")
        #expect(image.channels == 3 && image.pixels == [0xFF, 0, 0], "\(image.channels) \(image.pixels)")
    }

    @Test func aFrameOutsideTheScreenIsRefused() {
        let error = refusal(Self.tinyGIF(frameX: 2), name: "outside.gif")
        #expect(error?.code == .corruptImage && error?.message.contains("outside.gif") == true, "\(String(describing: error))")
        #expect(error?.message.contains("sticks out") == true, "\(String(describing: error))")
    }

    @Test func aFrameWithoutAnyColourTableIsRefused() {
        let error = refusal(Self.tinyGIF(frameX: 0, palette: false), name: "nopalette.gif")
        #expect(error?.code == .corruptImage && error?.message.contains("colour table") == true, "\(String(describing: error))")
    }

    @Test func aScreenOverTheCapIsRefusedAsTooLarge() {
        var gif = Self.tinyGIF(frameX: 0)
        gif[6] = 0xFF; gif[7] = 0xFF; gif[8] = 0xFF; gif[9] = 0xFF  // 65535x65535
        let error = refusal(gif, name: "huge.gif", maxPixels: 200_000_000)
        #expect(error?.code == .imageTooLarge && error?.message.contains("huge.gif") == true, "\(String(describing: error))")
    }

    @Test func bothSignaturesAreSniffedAndOthersAreNot() {
        #expect(FormatSniffer.sniff(Self.tinyGIF(frameX: 0, signature: "GIF87a")) == .gif)
        #expect(FormatSniffer.sniff(Self.tinyGIF(frameX: 0)) == .gif)
        #expect(FormatSniffer.sniff(Self.tinyGIF(frameX: 0, signature: "GIF88a")) == nil)
        #expect(ImageCodecs.inputFormats.contains(.gif))
    }
}
