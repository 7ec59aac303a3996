import Foundation
import Testing
import PickerProtocol
@testable import PickerEngine

/// Issue 27 item 3 for the formats whose decoders already existed: an animated WebP (libwebp's
/// WebPAnimDecoder) and an APNG (libpng's default image) show their first frame, judged against
/// Pillow's first frame. Needs the full corpus (the files are not in the fixtures).
@Suite struct AnimatedFirstFrameTests {
    static let maxPixels = 200_000_000
    static let files = ["webp/imagewebp_random_lossless_anim.webp", "webp/sharp_rotating-squares.webp",
                        "png-extra/imagers_apng_ball.png"]
    static let hasFiles = files.allSatisfy { TestCorpus.entry(path: $0) != nil }

    @Test(.enabled(if: hasFiles && PillowReference.isAvailable, "needs the full corpus and Pillow"))
    func animatedWebPAndAPNGShowTheirFirstFrame() throws {
        for path in Self.files {
            let (entry, bytes, _) = try #require(TestCorpus.required(path))
            let header = try ImageHeaderReader.read(bytes: bytes, name: entry.fileName)
            let image = try ImageDecoder.decode(bytes, header: header, photoName: entry.fileName, storedTarget: nil,
                                                maxPixels: Self.maxPixels)
            #expect([image.width, image.height] == entry.display, "\(path): \(image.size)")
            let reference = try PillowReference.firstFrameRGBA(bytes)
            try #require(reference.count == image.width * image.height * 4, "\(path): Pillow gave \(reference.count) bytes")
            let difference = Self.meanDifferenceRGBA(image, reference)
            // Measured 0 for all three (the same libwebp and libpng decode them); Pillow's second frame
            // differs from its first by 5.9-87/255 per channel.
            #expect(difference <= 1, "\(path): mean difference \(difference)/255 from Pillow's first frame")
        }
    }

    /// Mean absolute difference per channel (0–255) over RGBA; colour counts only where Pillow is opaque.
    static func meanDifferenceRGBA(_ image: PixelImage, _ reference: [UInt8]) -> Double {
        var total = 0
        for i in 0..<(image.width * image.height) {
            let alpha = image.channels == 4 ? Int(image.pixels[i * 4 + 3]) : 255
            total += abs(alpha - Int(reference[i * 4 + 3])) * 3
            guard reference[i * 4 + 3] != 0 else { continue }
            for c in 0..<3 {
                total += abs(Int(image.pixels[i * image.channels + c]) - Int(reference[i * 4 + c]))
            }
        }
        return Double(total) / Double(image.width * image.height * 3)
    }
}
