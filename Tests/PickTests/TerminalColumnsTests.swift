import PickerSystem
import Testing
@testable import pickerctl

/// Widths in terminal columns (issue 21 #10) and bidi controls escaped.
@Suite struct TerminalColumnsTests {
    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TerminalColumns.width(of: "abc") == 3)
        #expect(TerminalColumns.width(of: "写真") == 4)
        #expect(TerminalColumns.width(of: "ｆｕｌｌ") == 8)         // fullwidth forms
        #expect(TerminalColumns.width(of: "e\u{301}") == 1)           // e + combining acute
        #expect(TerminalColumns.width(of: "🌄") == 2)
        #expect(TerminalColumns.width(of: "한국") == 4)
    }

    @Test func fitCutsAndPadsToColumnsNeverSplittingAWideCharacter() {
        let name = String(repeating: "写", count: 40)
        let cell = PickRenderer.fit(name, 11, .unicode)
        #expect(TerminalColumns.width(of: cell) == 11)
        #expect(cell.hasSuffix("… ") || cell.hasSuffix("…"))
        #expect(TerminalColumns.width(of: PickRenderer.fit("写", 5, .unicode)) == 5)
    }

    @Test func bidiControlsAreShownEscaped() {
        #expect(InertText.escaped("\u{202E}gpj.exe") == "\\u{202e}gpj.exe")
        #expect(InertText.escaped("a\u{2066}b\u{2069}\u{200F}") == "a\\u{2066}b\\u{2069}\\u{200f}")
        #expect(InertText.escaped("plain 写真") == "plain 写真")
    }
}
