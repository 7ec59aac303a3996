import PickerProtocol
import Testing
@testable import pickerctl

/// The host app's choices in pick: the status row shows them, keys 1-9 change them (a check box flips,
/// a list moves on to its next option and round from the last), and no other key is taken.
@Suite struct PickChoicesTests {
    let layout = PickLayout(columns: 160, rows: 48, cell: .fallback)
    static let box = SessionChoice(id: "resize", label: "Resize", value: "false")
    static let list = SessionChoice(id: "format", label: "Format",
                                    options: [.init(id: "jpeg", label: "JPEG"), .init(id: "png", label: "PNG")], value: "png")

    private func model(_ choices: [SessionChoice]) -> PickerModel {
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: 10, selectionCount: 0,
                                 album: nil, albumIndex: nil, photo: nil, photoIndex: nil, photoCount: 0, message: "")
        var m = PickerModel(session: state, single: false)
        m.choices = choices
        return m
    }

    @Test func digitKeysFlipACheckBoxAndMoveAListRoundToItsFirstOption() {
        var m = model([Self.box, Self.list])
        #expect(m.handle(.character("1"), layout: layout) == [.setChoice(id: "resize", value: "true")])
        #expect(m.handle(.character("2"), layout: layout) == [.setChoice(id: "format", value: "jpeg")], "from the last option to the first")
        m.choices[0].value = "true"
        #expect(m.handle(.character("1"), layout: layout) == [.setChoice(id: "resize", value: "false")])
    }

    @Test func aKeyWithNoChoiceSaysSoAndChangesNothing() {
        var m = model([Self.box])
        #expect(m.handle(.character("3"), layout: layout) == [.redraw])
        #expect(m.notice == "choices are 1-1")
        var none = model([])
        #expect(none.handle(.character("1"), layout: layout) == [.redraw])
        #expect(none.notice == "no choices in this session")
    }

    @Test func theStatusRowShowsEachChoiceWithItsKeyAndTheHelpRowTheKeys() {
        let m = model([Self.box, Self.list])
        #expect(m.choicesText == "1 [ ] Resize  2 Format: PNG")
        let rows = PickRenderer.rows(m, layout, graphics: .symbols)
        #expect(rows[layout.statusRow]?.text.contains("0 of 10 picked   1 [ ] Resize  2 Format: PNG") == true, "\(String(describing: rows[layout.statusRow]))")
        #expect(rows[layout.helpRow]?.text.contains("1-9 choice") == true)
        let plain = PickRenderer.rows(model([]), layout, graphics: .symbols)
        #expect(plain[layout.helpRow]?.text.contains("choice") == false, "no choices: the key help is as before")
        #expect(PickHelp.lines(.unicode).contains { $0.hasPrefix("  1-9") })
    }

    @Test func aLabelWithControlCharactersIsShownInert() {
        var evil = Self.box
        evil.label = "\u{1b}[2Jx"
        #expect(!model([evil]).choicesText.contains("\u{1b}"))
    }
}
