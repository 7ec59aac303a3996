import PickerProtocol
import Testing
@testable import pickerctl

/// Issue 24 item 1: XTSMGRAPHICS's answer read, and pictures fitted to it.
@Suite struct SixelGeometryTests {
    @Test func theSixelGeometryAnswerIsReadAndAFailureIsNot() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("\u{1b}[?2;0;1000;780S".utf8)) == [.sixelGeometry(width: 1000, height: 780)])
        // Status 3 (failure) and the colour-register item (1) are not a geometry.
        #expect(parser.feed(Array("\u{1b}[?2;3;0S\u{1b}[?1;0;1024S".utf8)) == [.other, .other])
        var detection = GraphicsDetection()
        detection.note(.sixelGeometry(width: 1000, height: 780))
        #expect(detection.sixelGeometry == PixelSize(width: 1000, height: 780))
    }

    @Test func picturesAreAskedForWithinTheLimitAndALargerOneIsNamed() {
        var layout = PickLayout(columns: 300, rows: 90, cell: CellPixels(width: 6, height: 13))
        let unlimited = layout.picturePixels(of: layout.imagePane)
        layout.pictureLimit = PictureLimit(largest: PixelSize(width: 1000, height: 780))
        let fitted = layout.picturePixels(of: layout.imagePane)
        #expect(unlimited.width > 1000 && fitted.width == 1000 && fitted.height == 780, "\(unlimited) → \(fitted)")
        let limit = PictureLimit(largest: PixelSize(width: 1000, height: 780))
        #expect(limit.refusal(EncodedImage(format: .sixel, width: 1000, height: 780, data: [])) == nil)
        let refusal = limit.refusal(EncodedImage(format: .sixel, width: 1068, height: 700, data: [])) ?? ""
        #expect(refusal.contains("1068x700") && refusal.contains("1000x780"), "\(refusal)")
    }
}
