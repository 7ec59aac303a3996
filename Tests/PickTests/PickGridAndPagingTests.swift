import PickerProtocol
import Testing
@testable import pickerctl

/// The grid's terminal formats and the photo list's pages, without a terminal or a daemon.
@Suite struct PickGridAndPagingTests {
    private func photo(_ index: Int) -> PhotoInfo {
        PhotoInfo(index: index, name: "p\(index).jpg", path: "Big/p\(index).jpg", width: 10, height: 10, bytes: 1,
                  format: .jpeg, date: 0, dateSource: .modified)
    }

    @Test func appendingAPageKeepsTheCursorAndFiltersTheNewItems() {
        var list = PickList<PhotoInfo>(label: \.name)
        list.replace((1...3).map(photo))
        list.move(by: 2)
        list.setFilter("1")
        #expect(list.count == 1 && list.current?.index == 1)
        list.append((4...12).map(photo))
        // p10.jpg, p11.jpg and p12.jpg match "1" as well.
        #expect(list.count == 4 && list.current?.index == 1)
        list.setFilter("")
        #expect(list.count == 12)
    }

    @Test func endNeedsTheLastPageAndSlashTheWholeAlbumOnlyInAnIncompletePhotoList() {
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: 10, selectionCount: 0,
                                 album: "Big", albumIndex: 2, photo: "p1.jpg", photoIndex: 1, photoCount: 3, message: "")
        var m = PickerModel(session: state, single: false)
        m.photos.replace((1...3).map(photo))
        m.photosTotal = 10_050
        m.focus = .photos
        #expect(PhotoPaging.need(.end, m) == .lastPage)
        #expect(PhotoPaging.need(.character("G"), m) == .lastPage)
        #expect(PhotoPaging.need(.character("/"), m) == .wholeAlbum)
        #expect(PhotoPaging.need(.down, m) == nil)
        m.focus = .albums
        #expect(PhotoPaging.need(.end, m) == nil, "End in the album list moves there")
        m.focus = .photos
        m.photosTotal = 3
        #expect(PhotoPaging.need(.end, m) == nil, "all loaded")
    }

    @Test func gJumpsToTheLastLoadedPhotoLikeEnd() {
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: 10, selectionCount: 0,
                                 album: "Big", albumIndex: 2, photo: "p1.jpg", photoIndex: 1, photoCount: 3, message: "")
        var m = PickerModel(session: state, single: false)
        m.photos.replace((1...5).map(photo))
        m.photosTotal = 5
        m.focus = .photos
        #expect(m.handle(.character("G"), layout: PickLayout(columns: 160, rows: 48, cell: .fallback)) == [.selectPhoto(index: 5)])
    }

    @Test func aClickOnTheSymbolsGridHitsTheCellUnderItsCentre() {
        // A 400x132 px page of three 100 px cells, drawn as 50x8 symbols at column 10, row 2: 8 px a column, 16.5 a row.
        let cells = [GridCell(index: 1, name: "a", x: 16, y: 16, size: 100, selected: false, current: false),
                     GridCell(index: 2, name: "b", x: 126, y: 16, size: 100, selected: false, current: false),
                     GridCell(index: 3, name: "c", x: 236, y: 16, size: 100, selected: false, current: false)]
        let geometry = GridGeometry(width: 400, height: 132, cellSize: 100, spacing: 10, padding: 16, columns: 3, rows: 1,
                                    page: 1, pages: 1, cells: cells)
        let image = EncodedImage(format: .symbols, width: 50, height: 8, data: [])
        let hit = GridHit.symbolGrid(geometry, image: image, rect: CellRect(column: 10, row: 2, width: 60, height: 20))
        #expect(hit(10 + 2, 2 + 1) == 1)       // centre (20, 24.75) px: cell a
        #expect(hit(10 + 20, 2 + 4) == 2)      // (164, 74) px: cell b
        #expect(hit(10 + 35, 2 + 4) == 3)      // (284, 74) px: cell c
        #expect(hit(10 + 14, 2 + 4) == nil)    // (116, 74) px: the gap between a and b
        #expect(hit(10 + 55, 2 + 4) == nil)    // right of the picture
        #expect(hit(10 + 2, 2 + 12) == nil)    // below it
    }

    @Test func insideTmuxSixelIsChosenWhenTmuxSaysTheOuterTerminalHasItAndPassthroughIsOn() {
        let detection = GraphicsDetection()
        let env = ["TMUX": "/tmp/tmux-0/default,1,0"]
        let all: (GraphicsKind) -> Bool = { _ in true }
        let sixelOuter = TmuxOuterTerminal(passthroughValue: "on\n", clientValue: "256,RGB,clipboard,sixel,sync|xterm-256color\n")
        #expect(detection.choose(requested: nil, environment: env, tmuxOuter: sixelOuter, daemonSupports: all) == .sixel)
        let foot = TmuxOuterTerminal(passthroughValue: "on\n", clientValue: "256,RGB|foot-extra\n")
        #expect(foot.showsSixel && foot.termName == "foot-extra")
        let closed = TmuxOuterTerminal(passthroughValue: "off\n", clientValue: "256,RGB,sixel|foot\n")
        #expect(detection.choose(requested: nil, environment: env, tmuxOuter: closed, daemonSupports: all) == .symbols)
        let plain = TmuxOuterTerminal(passthroughValue: "all\n", clientValue: "256,RGB|xterm-256color\n")
        #expect(detection.choose(requested: nil, environment: env, tmuxOuter: plain, daemonSupports: all) == .symbols)
        #expect(detection.choose(requested: nil, environment: env, tmuxOuter: sixelOuter, daemonSupports: { $0 != .sixel }) == .symbols)
        #expect(detection.choose(requested: nil, environment: env, tmuxOuter: nil, daemonSupports: all) == .symbols)
    }
}
