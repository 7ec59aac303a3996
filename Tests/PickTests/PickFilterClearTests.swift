import Testing
@testable import pickerctl

/// Issue 24 (item 5's last part, listed under 7 in its table): Esc on a filter keeps the row you were on.
@Suite struct PickFilterClearTests {
    @Test func clearingTheFilterKeepsTheCursorOnTheSameItem() {
        var list = PickList<String>(label: { $0 })
        list.replace((1...50).map { ($0 < 10 ? "p0" : "p") + "\($0).jpg" })
        list.setFilter("p4")
        list.move(by: 3)  // p40 … p49: the fourth is p43
        #expect(list.current == "p43.jpg")
        list.setFilter("")
        #expect(list.current == "p43.jpg", "not row 4 of the full list (p04.jpg)")
        #expect(list.count == 50)
    }
}
