import Testing
@testable import PickerEngine
import PickerProtocol

/// Issue 21 #1: size arithmetic saturates instead of trapping, and a header declaring more than
/// any cap is refused "too large" when it is read.
@Suite struct PixelCountTests {
    @Test func productsAndSumsSaturate() {
        #expect(PixelCount.product(2_147_483_647, 2_147_483_647, 4, 16) == Int.max)
        #expect(PixelCount.product(Int.max, 0) == 0)
        #expect(PixelCount.product(-5, 3) == 0)
        #expect(PixelCount.sum(Int.max, 1) == Int.max)
        #expect(PixelCount.product(640, 480, 3) == 921_600)
    }

    @Test func theWorkEstimateOfAHugeHeaderDoesNotTrap() {
        let header = ImageHeader(format: .png, storedWidth: 2_147_483_647, storedHeight: 2_147_483_647, orientation: .right)
        let fit = FitTarget(maxWidth: 800, maxHeight: 600, allowUpscale: false)
        #expect(WorkEstimate.render(header: header, fileBytes: 57, fit: fit, output: .sixel, maxPixels: 200_000_000) > 200_000_000 * 4)
        #expect(WorkEstimate.thumbnailCell(header: header, fileBytes: 57, box: 256, maxPixels: 200_000_000) > 200_000_000 * 4)
    }

    @Test func aHeaderOverTheCeilingIsRefusedTooLarge() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
                            0x7f, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 8, 2, 0, 0, 0, 0x9b, 0xab, 0x9c, 0x31,
                            0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]
        do {
            _ = try ImageHeaderReader.read(bytes: png, name: "huge.png")
            Issue.record("a 2147483647x2147483647 header was accepted")
        } catch {
            #expect(error.code == .imageTooLarge)
            #expect(error.message.contains("too large"), "\(error.message)")
        }
    }
}
