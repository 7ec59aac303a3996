import Testing
import PickerProtocol
@testable import PickerEngine

/// Grid cells from a JPEG's EXIF thumbnail (IFD1): used only when asked for (grid cells), only
/// when it is at least the target and has the picture's aspect ratio within 1 %.
@Suite struct JPEGThumbnailTests {
    static let maxPixels = 200_000_000
    static let canon = "camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"

    @Test func aspectAndSizeDecideWhetherTheThumbnailServes() {
        let stored = PixelSize(width: 5760, height: 3840)
        #expect(JPEGThumbnail.covers(PixelSize(width: 160, height: 107), target: PixelSize(width: 150, height: 100), stored: stored))
        #expect(!JPEGThumbnail.covers(PixelSize(width: 160, height: 120), target: PixelSize(width: 150, height: 100), stored: stored),
                "4:3 thumbnail of a 3:2 picture (letterboxed) is refused")
        #expect(!JPEGThumbnail.covers(PixelSize(width: 160, height: 107), target: PixelSize(width: 161, height: 100), stored: stored),
                "smaller than the target is refused")
    }

    @Test func cameraGridCellComesFromTheExifThumbnailAndLooksLikeThePhoto() throws {
        let (entry, bytes, format) = try #require(TestCorpus.required(Self.canon))
        let header = TestCorpus.header(for: entry, format: format)
        let thumbBytes = try #require(JPEGThumbnail.thumbnailBytes(bytes), "\(Self.canon) has no IFD1 thumbnail")
        let thumb = try JPEGDecoder.decode(thumbBytes, maxPixels: Self.maxPixels, photoName: "thumb")
        let cell = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                   minimumDisplaySize: (150, 100), maxPixels: Self.maxPixels,
                                                   embeddedThumbnail: true)
        #expect(cell.size == thumb.size, "cell source \(cell.size), thumbnail \(thumb.size)")
        // Without the flag (get-image, previews) the picture itself is decoded (DCT-scaled, ≥ 2x).
        let decoded = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                      minimumDisplaySize: (150, 100), maxPixels: Self.maxPixels)
        #expect(decoded.width >= 300 && decoded.height >= 200, "\(decoded.size)")
        // The thumbnail shows the same picture, the same way up.
        let a = try Resampler.resample(cell, to: PixelSize(width: 150, height: 100))
        let b = try Resampler.resample(decoded, to: PixelSize(width: 150, height: 100))
        let diff = try #require(meanAbsoluteDifference(a, b))
        #expect(diff <= 10, "thumbnail differs from the picture by \(diff)/255")
        let flipped = try OrientationTransform.apply(.down, to: b)
        #expect(try #require(meanAbsoluteDifference(a, flipped)) > diff + 5, "the comparison cannot tell orientation")
    }

    @Test func targetLargerThanTheThumbnailDecodesThePicture() throws {
        let (entry, bytes, format) = try #require(TestCorpus.required(Self.canon))
        let header = TestCorpus.header(for: entry, format: format)
        let image = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: entry.fileName,
                                                    minimumDisplaySize: (400, 267), maxPixels: Self.maxPixels,
                                                    embeddedThumbnail: true)
        #expect(image.width >= 800, "\(image.size)")
    }

    @Test func damagedExifNeverGivesAThumbnailOutsideTheSegment() {
        // An APP1 whose IFD1 points past its end, and one cut inside the TIFF header.
        var tiff: [UInt8] = Array("MM".utf8) + [0, 0x2A, 0, 0, 0, 8]   // IFD0 at 8
        tiff += [0, 0] + [0, 0, 0, 14]                                    // no entries, IFD1 at 14
        tiff += [0, 2] + [0x02, 0x01, 0, 4, 0, 0, 0, 1, 0, 0, 0, 40]      // 0x0201 offset 40
        tiff += [0x02, 0x02, 0, 4, 0, 0, 0, 1, 0, 0, 0x10, 0] + [0, 0, 0, 0] // 0x0202 length 4096
        let exif: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        let file: [UInt8] = [0xFF, 0xD8] + app1 + [0xFF, 0xDA, 0, 2]
        #expect(JPEGThumbnail.thumbnailBytes(file) == nil)
        #expect(JPEGThumbnail.thumbnailBytes(Array(file.prefix(12))) == nil)
    }
}
