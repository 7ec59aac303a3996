import PickerProtocol
import Testing
@testable import pickerctl

/// The picker's state machine: inputs in, actions out, no terminal and no daemon.
@Suite struct PickerModelTests {
    let layout = PickLayout(columns: 160, rows: 48, cell: .fallback)

    private func photo(_ index: Int, _ name: String) -> PhotoInfo {
        PhotoInfo(index: index, name: name, path: "Kyoto/\(name)", width: 10, height: 10, bytes: 1, format: .jpeg,
                  date: 0, dateSource: .modified)
    }

    private func model(photo current: Int? = nil, max: Int = 10, single: Bool = false) -> PickerModel {
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: max, selectionCount: 0,
                                 album: "Kyoto", albumIndex: 3, photo: current.map { "p\($0).jpg" }, photoIndex: current,
                                 photoCount: 3, message: "")
        var m = PickerModel(session: state, single: single)
        m.albums.replace([AlbumInfo(index: 1, name: "All Photos", photoCount: 4), AlbumInfo(index: 2, name: "Home", photoCount: 1),
                          AlbumInfo(index: 3, name: "Kyoto", photoCount: 3)])
        m.photos.replace([photo(1, "p1.jpg"), photo(2, "p2.jpg"), photo(3, "p3.jpg")])
        if let current { m.photos.moveCursor { $0.index == current } }
        return m
    }

    @Test func enterOnAnAlbumOpensItAndFocusesThePhotos() {
        var m = model()
        #expect(m.handle(.down, layout: layout) == [.redraw])
        #expect(m.handle(.enter, layout: layout) == [.openAlbum(index: 2)])
        #expect(m.focus == .photos)
    }

    @Test func movingInThePhotoListMakesThePhotoCurrent() {
        var m = model(photo: 1)
        m.focus = .photos
        #expect(m.handle(.character("j"), layout: layout) == [.selectPhoto(index: 2)])
        #expect(m.handle(.up, layout: layout) == [.selectPhoto(index: 1)])
        #expect(m.handle(.up, layout: layout) == [], "no move past the top")
    }

    @Test func spaceTogglesAndIsRefusedWithANoticeAtTheMaximum() {
        var m = model(photo: 1, max: 1)
        m.focus = .photos
        #expect(m.handle(.character(" "), layout: layout) == [.togglePhoto(index: 1)])
        m.picks = ["Kyoto/p1.jpg"]
        #expect(m.handle(.character(" "), layout: layout) == [.togglePhoto(index: 1)], "unpicking is allowed at the maximum")
        _ = m.handle(.down, layout: layout)
        #expect(m.handle(.character(" "), layout: layout) == [.redraw])
        #expect(m.notice.contains("full"))
    }

    @Test func enterInThePhotoListAcceptsAndEscapeQAndCtrlCCancel() {
        var m = model(photo: 2)
        m.focus = .photos
        #expect(m.handle(.enter, layout: layout) == [.accept])
        for key: TerminalInput in [.escape, .character("q"), .interrupt] { #expect(m.handle(key, layout: layout) == [.cancel]) }
    }

    @Test func slashFiltersTheFocusedListAsYouTypeAndEscapeClearsIt() {
        var m = model(photo: 1)
        m.focus = .photos
        #expect(m.handle(.character("/"), layout: layout) == [.redraw])
        #expect(m.handle(.character("3"), layout: layout) == [.selectPhoto(index: 3)])
        #expect(m.photos.count == 1)
        #expect(m.handle(.character("q"), layout: layout) == [.redraw], "q is text while filtering, not cancel")
        #expect(m.photos.count == 0)
        _ = m.handle(.escape, layout: layout)
        #expect(m.photos.count == 3 && !m.filterEditing)
        _ = m.handle(.character("/"), layout: layout)
        #expect(m.handle(.interrupt, layout: layout) == [.cancel])
    }

    @Test func gTogglesTheGridAndPOpensThePreviewThatEscCloses() {
        var m = model(photo: 1)
        #expect(m.handle(.character("g"), layout: layout) == [.redrawAll] && m.mode == .grid)
        #expect(m.handle(.character("p"), layout: layout) == [.redrawAll] && m.mode == .preview)
        #expect(m.handle(.character("x"), layout: layout) == [] && m.mode == .preview, "a key without a meaning stays")
        #expect(m.handle(.escape, layout: layout) == [.redrawAll] && m.mode == .grid)  // back where it was opened (issue 24)
    }

    /// Issue 24 item 4: the preview steps through the album and picks, like nsxiv's image mode.
    @Test func thePreviewStepsWithNAndPAndArrowsPicksWithSpaceAndEscKeepsThePhotoSteppedTo() {
        var m = model(photo: 1)
        m.focus = .photos
        #expect(m.handle(.character("p"), layout: layout) == [.redrawAll] && m.mode == .preview)
        #expect(m.handle(.character("n"), layout: layout) == [.selectPhoto(index: 2)])
        m.session.photoIndex = 2
        #expect(m.handle(.right, layout: layout) == [.selectPhoto(index: 3)])
        m.session.photoIndex = 3
        #expect(m.handle(.character("n"), layout: layout) == [], "no step past the last photo")
        #expect(m.handle(.left, layout: layout) == [.selectPhoto(index: 2)])
        m.session.photoIndex = 2
        #expect(m.handle(.character(" "), layout: layout) == [.togglePhoto(index: 2)])
        m.picks = ["Kyoto/p2.jpg"]
        let status = PickRenderer.previewStatus(m, 160, .unicode)
        #expect(status.contains("✓1 picked") && status.contains("1 of 10 picked"), "\(status)")
        #expect(m.handle(.character("p"), layout: layout) == [.selectPhoto(index: 1)], "p is the previous photo in the preview")
        #expect(m.mode == .preview)
        #expect(m.handle(.escape, layout: layout) == [.redrawAll] && m.mode == .panes)
        #expect(m.photos.current?.index == 1, "the list stays on the photo stepped to")
    }

    @Test func inTheGridUpAndDownMoveByARow() {
        var m = model(photo: 1)
        m.focus = .photos
        m.mode = .grid
        m.gridColumns = 2
        #expect(m.handle(.down, layout: layout) == [.selectPhoto(index: 3)])
        #expect(m.handle(.left, layout: layout) == [.selectPhoto(index: 2)])
    }

    @Test func clicksSelectWhatIsUnderThem() {
        var m = model()
        let kyotoRow = layout.albumPane.row + 2
        #expect(m.handle(.click(column: 1, row: kyotoRow), layout: layout) == [.openAlbum(index: 3)])
        #expect(m.handle(.click(column: layout.photoPane.column + 2, row: layout.photoPane.row + 1), layout: layout) == [.selectPhoto(index: 2)])
        #expect(m.handle(.click(column: layout.photoPane.column + 2, row: layout.photoPane.row + 20), layout: layout) == [.redraw], "an empty row")
    }

    @Test func singleAcceptsTheCurrentPhotoOnSpace() {
        var m = model(photo: 1, single: true)
        m.focus = .photos
        #expect(m.handle(.character(" "), layout: layout) == [.selectPhoto(index: 1), .accept])
    }
}
