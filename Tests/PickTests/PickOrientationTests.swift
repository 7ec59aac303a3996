import PickerProtocol
import Testing
@testable import pickerctl

/// Issue 24 item 6: `?` help, Enter in the grid previews (never accepts), the preview returns to
/// where it was opened, the grid heading names its page.
@Suite struct PickOrientationTests {
    let layout = PickLayout(columns: 160, rows: 48, cell: .fallback)

    private func model() -> PickerModel {
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: 10, selectionCount: 0,
                                 album: "Kyoto", albumIndex: 3, photo: "p1.jpg", photoIndex: 1, photoCount: 2, message: "")
        var m = PickerModel(session: state, single: false)
        m.albums.replace([AlbumInfo(index: 1, name: "Kyoto", photoCount: 2)])
        m.photos.replace([1, 2].map {
            PhotoInfo(index: $0, name: "p\($0).jpg", path: "Kyoto/p\($0).jpg", width: 10, height: 10, bytes: 1, format: .jpeg,
                      date: 0, dateSource: .modified)
        })
        m.focus = .photos
        return m
    }

    @Test func enterInTheGridOpensThePreviewAndEscComesBackToTheGrid() {
        var m = model()
        #expect(m.handle(.character("g"), layout: layout) == [.redrawAll])
        let actions = m.handle(.enter, layout: layout)
        #expect(!actions.contains(.accept), "Enter in the grid does not end the pick")
        #expect(m.mode == .preview)
        #expect(m.handle(.escape, layout: layout) == [.redrawAll])
        #expect(m.mode == .grid, "back to the grid it was opened from")
        // In the photo list Enter still accepts, and p's preview returns to the panes.
        #expect(m.handle(.character("g"), layout: layout) == [.redrawAll])
        #expect(m.handle(.character("p"), layout: layout) == [.redrawAll])
        _ = m.handle(.escape, layout: layout)
        #expect(m.mode == .panes)
        #expect(m.handle(.enter, layout: layout) == [.accept])
    }

    @Test func questionMarkShowsEveryKeyAndAnyKeyClosesItWithoutActing() {
        var m = model()
        #expect(m.handle(.character("?"), layout: layout) == [.redrawAll])
        #expect(m.helpShown)
        let rows = PickRenderer.rows(m, layout, graphics: .none)
        let text = rows.values.map(\.text).joined(separator: "\n")
        for key in ["Enter", "Space", "/", "g ", "p ", "?", "Esc", "Tab"] { #expect(text.contains(key), "help names \(key)") }
        // q closes the help; it does not cancel the pick.
        #expect(m.handle(.character("q"), layout: layout) == [.redrawAll])
        #expect(!m.helpShown)
        #expect(m.handle(.character("q"), layout: layout) == [.cancel])
    }

    @Test func theGridHeadingNamesItsPage() {
        var m = model()
        _ = m.handle(.character("g"), layout: layout)
        m.gridPage = (3, 56)
        let heading = PickRenderer.rows(m, layout, graphics: .symbols)[1]?.text ?? ""
        #expect(heading.contains("Grid  page 3/56"), "\(heading)")
    }
}
