import Testing
@testable import pickerctl

/// Bytes from the terminal to inputs: keys, SGR mouse, and the answers to pick's queries.
@Suite struct TerminalInputParserTests {
    private func parse(_ chunks: String...) -> [TerminalInput] {
        var parser = TerminalInputParser()
        return chunks.flatMap { parser.feed(Array($0.utf8)) }
    }

    @Test func arrowsAndLettersAndControlKeys() {
        #expect(parse("\u{1b}[A\u{1b}[Bjk\r\t \u{7f}\u{03}") ==
                [.up, .down, .character("j"), .character("k"), .enter, .tab, .character(" "), .backspace, .interrupt])
        #expect(parse("\u{1b}OC\u{1b}OD\u{1b}[Z\u{1b}[5~\u{1b}[6~") == [.right, .left, .backTab, .pageUp, .pageDown])
    }

    @Test func aLoneEscapeAtTheEndOfAReadIsTheEscapeKey() {
        #expect(parse("\u{1b}") == [.escape])
        #expect(parse("q\u{1b}") == [.character("q"), .escape])
    }

    @Test func aSequenceSplitAcrossReadsIsKeptUntilComplete() {
        #expect(parse("\u{1b}[", "A") == [.up])
        #expect(parse("\u{1b}[<0;12", ";7M") == [.click(column: 11, row: 6)])
    }

    @Test func sgrMouseClicksAndWheelAreZeroBased() {
        #expect(parse("\u{1b}[<0;1;1M") == [.click(column: 0, row: 0)])
        #expect(parse("\u{1b}[<64;5;9M\u{1b}[<65;5;9M") == [.wheel(up: true, column: 4, row: 8), .wheel(up: false, column: 4, row: 8)])
        #expect(parse("\u{1b}[<0;3;3m") == [.other], "a release is not a click")
    }

    @Test func queryAnswersAreRecognised() {
        #expect(parse("\u{1b}_Gi=31;OK\u{1b}\\") == [.kittyGraphicsReply(ok: true)])
        #expect(parse("\u{1b}_Gi=31;ENOTSUPPORTED:x\u{1b}\\") == [.kittyGraphicsReply(ok: false)])
        #expect(parse("\u{1b}[?62;4;22c") == [.deviceAttributes([62, 4, 22])])
        #expect(parse("\u{1b}[4;768;1280t\u{1b}[6;16;8t") == [.windowPixels(width: 1280, height: 768), .cellPixels(width: 8, height: 16)])
    }

    @Test func multiByteCharactersArriveWhole() {
        var parser = TerminalInputParser()
        let bytes = Array("é".utf8)
        #expect(parser.feed([bytes[0]]).isEmpty)
        #expect(parser.feed([bytes[1]]) == [.character("é")])
    }
}
