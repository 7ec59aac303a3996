import PickerSystem
import Testing

/// The one escaper behind pickerctl's text output and pickerd's log.
@Suite struct InertTextEscapingTests {
    @Test func plainTextAndPrintableUnicodePassUnchanged() {
        for s in ["", "IMG_0001.jpg", "2024/Kyoto", "All Photos", "Ünïcødé 写真 📷", "\u{FFFD}bad", "C:\\photos\\a.jpg",
                  "\u{A0}non-breaking", "\u{FF}"] {
            #expect(InertText.escaped(s) == s)
        }
    }

    @Test func terminalControlsAreShownAsEscapes() {
        #expect(InertText.escaped("a\u{1B}[2Jb") == "a\\e[2Jb")
        #expect(InertText.escaped("\u{1B}]52;c;SGk=\u{07}") == "\\e]52;c;SGk=\\x07")
        #expect(InertText.escaped("x\ry\u{08}z") == "x\\ry\\x08z")
        #expect(InertText.escaped("row\nforged\tcell") == "row\\nforged\\tcell")
        #expect(InertText.escaped("nul\u{0}del\u{7F}") == "nul\\x00del\\x7f")
        #expect(InertText.escaped("csi\u{9B}31m \u{80}\u{9F}") == "csi\\u{9b}31m \\u{80}\\u{9f}")
    }

    @Test func noControlCodePointSurvivesForAnyScalarBelowA0() {
        let all = String(String.UnicodeScalarView((0..<0xA0).compactMap(Unicode.Scalar.init)))
        let out = InertText.escaped(all)
        #expect(!out.unicodeScalars.contains(where: InertText.isControl))
        #expect(out.contains("\\e") && out.contains("\\x1f") && out.contains("\\u{85}"))
    }

    @Test func keptCodePointsPassWhileOthersAreEscaped() {
        #expect(InertText.escaped("a\nb\u{1B}c", keeping: ["\n"]) == "a\nb\\ec")
    }
}
