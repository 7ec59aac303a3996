import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// HEIF shrink-on-load (pk_heif_decode's scale_denom, pk_shrink.c): a picture decoded for a small
/// target is box-shrunk by JPEG's factor before its colours are converted, and a picture whose
/// only transform is an `irot` is decoded as stored, shrunk, then turned (not turned at 12 Mpx by
/// libheif). Judged against the full-size decode (libheif's own transforms) resampled alike.
@Suite struct HEIFShrinkTests {
    static let maxPixels = 200_000_000

    /// The file decoded for `target` (display axes) and at full size, both resampled to the
    /// shrunk size; the shrunk one must be that size exactly.
    func shrunkAndFull(_ path: String, target: PixelSize) throws -> (PixelImage, PixelImage, PixelImage)? {
        guard let (entry, bytes, _) = TestCorpus.required(path) else { return nil }
        let header = try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
        let stored = PixelSize(width: header.storedWidth, height: header.storedHeight)
        let shrunk = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName, storedTarget: target,
                                             maxPixels: Self.maxPixels)
        let denominator = ShrinkFactor.jpegDenominator(stored: stored, target: target)
        #expect(denominator > 1, "\(path): \(stored) for \(target) is not shrunk, so this test tests nothing")
        #expect(shrunk.size == ShrinkFactor.scaledSize(stored, denominator: denominator), "\(path): \(shrunk.size)")
        let full = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName, storedTarget: nil,
                                           maxPixels: Self.maxPixels)
        let small = PixelSize(width: max(1, shrunk.width / 2), height: max(1, shrunk.height / 2))
        return (try Resampler.resample(shrunk, to: small), try Resampler.resample(full, to: small), full)
    }

    /// Files whose only transform is an irot: the AVIF fixture always, the iPhone grid with the full corpus.
    static let irotFiles = ["avif/photo-irot90.avif"]
        + ["heic/ianare_iphone_13_pro_max.heic"].filter { TestCorpus.entry(path: $0) != nil }

    /// An irot and no other transform, so the shrunk decode turns the picture itself.
    @Test(arguments: irotFiles)
    func anIrotPictureShrunkOnLoadIsTurnedAsLibheifTurnsIt(path: String) throws {
        guard let (shrunk, full, _) = try shrunkAndFull(path, target: PixelSize(width: 120, height: 160)) else { return }
        let diff = try #require(meanAbsoluteDifference(shrunk, full), "\(shrunk.size) vs \(full.size)")
        #expect(diff <= 2, "\(path): shrunk on load differs from the full decode by \(diff)/255")
        // Turned the other way round it would be far off, so the comparison can tell.
        let wrong = try #require(meanAbsoluteDifference(try OrientationTransform.apply(.down, to: shrunk), full))
        #expect(wrong > diff + 10, "\(path): upside down is as close (\(wrong)) as upright (\(diff))")
    }

    /// The rainbow has a clean-aperture crop: libheif transforms it, then it is shrunk.
    @Test func aCroppedPictureShrunkOnLoadKeepsItsCrop() throws {
        guard let (shrunk, full, whole) = try shrunkAndFull("heic/libheif_rainbow-451x461.heic",
                                                            target: PixelSize(width: 40, height: 40)) else { return }
        #expect(whole.size == PixelSize(width: 451, height: 461))
        let diff = try #require(meanAbsoluteDifference(shrunk, full), "\(shrunk.size) vs \(full.size)")
        #expect(diff <= 2, "shrunk on load differs from the full decode by \(diff)/255")
    }
}
