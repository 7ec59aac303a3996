import PickerSystem
import Testing
@testable import pickerctl

/// The panes in cells and the image pane in pixels.
@Suite struct PickLayoutTests {
    @Test func cellSizeComesFromTheWindowSizeThenTheAnswersThenEightBySixteen() {
        let withPixels = TerminalSize(rows: 40, columns: 120, pixelWidth: 1200, pixelHeight: 800)
        #expect(CellPixels.resolve(size: withPixels, cellReply: CellPixels(width: 7, height: 14), windowReply: nil) == CellPixels(width: 10, height: 20))
        let noPixels = TerminalSize(rows: 40, columns: 120)
        #expect(CellPixels.resolve(size: noPixels, cellReply: CellPixels(width: 7, height: 14), windowReply: nil) == CellPixels(width: 7, height: 14))
        #expect(CellPixels.resolve(size: noPixels, cellReply: nil, windowReply: (960, 640)) == CellPixels(width: 8, height: 16))
        #expect(CellPixels.resolve(size: noPixels, cellReply: nil, windowReply: nil) == .fallback)
    }

    @Test func panesTileTheWidthLeftToRightAndTheImagePaneTakesTheRest() {
        let layout = PickLayout(columns: 160, rows: 48, cell: .fallback)
        let a = layout.albumPane, p = layout.photoPane, i = layout.imagePane
        #expect(a.column == 0 && p.column == a.width + 1 && i.column == p.column + p.width + 1)
        #expect(i.column + i.width == 160)
        #expect(a.row == 2 && a.height == 44 && i.height == 44)
        #expect(layout.statusRow == 46 && layout.helpRow == 47)
        #expect(i.width > a.width && i.width > p.width)
    }

    @Test func imagePanePixelsAreItsCellsTimesTheCellSizeWithinTheSessionRange() {
        let layout = PickLayout(columns: 120, rows: 40, cell: CellPixels(width: 8, height: 16))
        let px = layout.pixels(of: layout.imagePane)
        #expect(px.width == layout.imagePane.width * 8 && px.height == layout.imagePane.height * 16)
        let huge = PickLayout(columns: 1000, rows: 1000, cell: CellPixels(width: 30, height: 60))
        #expect(huge.pixels(of: huge.imagePane).height == 8192)
        let tiny = PickLayout(columns: 40, rows: 8, cell: CellPixels(width: 1, height: 1))
        #expect(tiny.pixels(of: tiny.imagePane).height == 16)
    }
}
