import Testing
@testable import PickerProtocol

/// Input and output formats share wire values, but a decode-only format (HEIC, AVIF) is no
/// output format: a client cannot ask for it, and a request that does is `invalid_argument`.
@Suite struct FormatSplitTests {
    @Test func inputAndOutputFormatsShareWireValuesButHEIFIsInputOnly() {
        #expect(PhotoFormat.known.map(\.rawValue) == [1, 2, 3, 4, 5, 8, 9, 10])
        #expect(PhotoFormat.jpeg.outputFormat == .jpeg && PhotoFormat.png.outputFormat == .png
                && PhotoFormat.webp.outputFormat == .webp)
        #expect(PhotoFormat.heic.outputFormat == nil && PhotoFormat.avif.outputFormat == nil)
        #expect(!ImageFormat(rawValue: 4).isKnown && !ImageFormat(rawValue: 5).isKnown)
        #expect([PhotoFormat.gif, .jxl, .raw].allSatisfy { $0.outputFormat == nil })
        #expect([PhotoFormat.gif, .jxl, .raw].map(\.displayName) == ["GIF", "JPEG XL", "RAW"])
        #expect(PhotoFormat(ImageFormat.webp) == .webp)
        #expect(PhotoFormat.heic.displayName == "HEIC" && PhotoFormat.avif.displayName == "AVIF")
    }

    @Test(arguments: [PhotoFormat.heic, .avif, .gif, .jxl, .raw])
    func getImageAskingForADecodeOnlyFormatIsInvalidArgument(_ format: PhotoFormat) throws {
        var frame = Request.getImage(ImageRequest(session: "s", format: .png)).frame(id: 7)
        // session "s" = 4 + 1 bytes, then the format byte.
        #expect(frame.payload[5] == ImageFormat.png.rawValue)
        frame.payload[5] = format.rawValue
        #expect(throws: PickerError(.invalidArgument, "unknown output format \(format.rawValue)")) {
            try Request(frame: frame)
        }
    }
}
