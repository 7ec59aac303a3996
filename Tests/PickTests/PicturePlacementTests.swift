import PickerProtocol
import Testing
@testable import pickerctl

/// Issue 24 item 7: pictures centred in their pane, not at its left.
@Suite struct PicturePlacementTests {
    let pane = CellRect(column: 50, row: 2, width: 100, height: 40)
    let cell = CellPixels(width: 8, height: 16)

    @Test func aPortraitPictureSitsInTheMiddleOfAWidePane() {
        // 320x640 px: 40x40 cells in a 100x40 pane: 30 columns either side.
        let portrait = EncodedImage(format: .sixel, width: 320, height: 640, data: [])
        #expect(PicturePlacement.centred(portrait, in: pane, cell: cell) == CellRect(column: 80, row: 2, width: 40, height: 40))
    }

    @Test func aLandscapePictureSitsInTheMiddleOfATallPane() {
        // 800x320 px: 100x20 cells: 10 rows above and below.
        let landscape = EncodedImage(format: .png, width: 800, height: 320, data: [])
        #expect(PicturePlacement.centred(landscape, in: pane, cell: cell) == CellRect(column: 50, row: 12, width: 100, height: 20))
    }

    @Test func symbolsAreCountedInCellsAndPartCellsRoundUp() {
        let symbols = EncodedImage(format: .symbols, width: 60, height: 40, data: [])
        #expect(PicturePlacement.centred(symbols, in: pane, cell: cell) == CellRect(column: 70, row: 2, width: 60, height: 40))
        let odd = EncodedImage(format: .sixel, width: 801, height: 1, data: [])
        let cells = PicturePlacement.cells(of: odd, cell: cell)
        #expect(cells.columns == 101 && cells.rows == 1)
        // Larger than the pane (a terminal that reported no size): the pane's corner, never outside it.
        #expect(PicturePlacement.centred(odd, in: pane, cell: cell).column == 50)
    }
}
