import Testing
import PickerProtocol
import PickerTestSupport
@testable import PickerEngine

/// Checks every codec's tests make the same way (HEIF, JPEG XL): one place for each.
enum DecoderChecks {
    /// Under a header that understates the size (1x1), a cap one pixel below the picture's
    /// `realPixels` must still refuse it: the C decoder checks the size it finds itself.
    static func capIsCheckedByTheDecoder(_ bytes: [UInt8], format: PhotoFormat, photoName: String, realPixels: Int) {
        let lying = ImageHeader(format: format, storedWidth: 1, storedHeight: 1)
        do {
            let image = try ImageDecoder.decode(bytes, header: lying, photoName: photoName, storedTarget: nil,
                                                maxPixels: realPixels - 1)
            Issue.record("decoded \(image.size) over the cap")
        } catch {
            #expect(error.code == .imageTooLarge, "\(error.message)")
            #expect(error.message.contains(photoName))
        }
    }

    /// A pane (600x400) and a cell (64x64) render to exactly the fitted size of `display`.
    static func rendersToTheFittedSize(_ entry: CorpusEntry, _ bytes: [UInt8], header: ImageHeader,
                                       display: [Int], maxPixels: Int) throws {
        for fit in [FitTarget(maxWidth: 600, maxHeight: 400), FitTarget(maxWidth: 64, maxHeight: 64)] {
            let out = try ImageRenderer.render(data: bytes, header: header, photoName: entry.fileName, fit: fit,
                                               output: .png, maxPixels: maxPixels)
            let expected = fit.fittedSize(for: PixelSize(width: display[0], height: display[1]))
            #expect(out.width == expected.width && out.height == expected.height, "\(entry.path) into \(fit)")
        }
    }
}
