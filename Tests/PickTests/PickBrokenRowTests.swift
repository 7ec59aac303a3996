import PickerProtocol
import Testing
@testable import pickerctl

/// How the photo list draws a photo the daemon marked broken, and how a re-read row replaces the old
/// one, without a terminal or a daemon.
@Suite struct PickBrokenRowTests {
    private func photo(_ index: Int, broken: String? = nil) -> PhotoInfo {
        PhotoInfo(index: index, name: "p\(index).jpg", path: "A/p\(index).jpg", width: 10, height: 10, bytes: 1,
                  format: .jpeg, date: 0, dateSource: .modified, broken: broken)
    }

    private func model(_ photos: [PhotoInfo]) -> PickerModel {
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: 10, selectionCount: 0,
                                 album: "A", albumIndex: 2, photo: "p1.jpg", photoIndex: 1, photoCount: photos.count, message: "")
        var m = PickerModel(session: state, single: false)
        m.photos.replace(photos)
        m.photosTotal = photos.count
        m.focus = .photos
        return m
    }

    /// The photo-list cell of the screen row that lists `name` (between the first two `│`).
    private func cell(_ m: PickerModel, _ name: String) -> String {
        let rows = PickRenderer.rows(m, PickLayout(columns: 160, rows: 48, cell: .fallback), graphics: .none)
        for row in rows.values {
            let cells = row.text.split(separator: "│", omittingEmptySubsequences: false)
            if cells.count >= 2, cells[1].contains(name) { return String(cells[1]) }
        }
        return ""
    }

    @Test func brokenPhotoRowHasARedCrossAndADimNameAndAGoodOneHasNeither() {
        let m = model([photo(1), photo(2, broken: "corrupt JPEG data")])
        let broken = cell(m, "p2.jpg"), good = cell(m, "p1.jpg")
        #expect(broken.contains("\u{1b}[31m" + PickGlyphs.unicode.broken), "\(broken.debugDescription)")
        #expect(broken.contains("\u{1b}[39;2mp2.jpg"), "\(broken.debugDescription)")
        #expect(!good.contains(PickGlyphs.unicode.broken), "\(good.debugDescription)")
    }

    @Test func brokenPhotoPickedBeforeItWasFoundBrokenKeepsItsPickNumberBesideTheCross() {
        var m = model([photo(1), photo(2, broken: "corrupt JPEG data")])
        m.picks = ["A/p2.jpg"]
        #expect(cell(m, "p2.jpg").contains(PickGlyphs.unicode.broken + "1"))
    }

    @Test func reReadRowReplacesTheOldOneInPlaceUnderAFilter() {
        var list = PickList<PhotoInfo>(label: \.name)
        list.replace([photo(1), photo(2), photo(12)])
        list.setFilter("2")
        list.move(by: 1)
        #expect(list.current?.index == 12)
        list.update(at: 2, with: photo(12, broken: "truncated"))
        #expect(list.current?.broken == "truncated", "the cursor stays on the same row")
        #expect(list.count == 2)
        list.update(at: 7, with: photo(7))  // past the end: ignored
        #expect(list.items.count == 3)
    }
}
