@testable import PickerEngine
import PickerProtocol
import Testing

/// libchafa behind TerminalImageEncoder: the cell grid, the sixel size and the text's ending.
@Suite struct TerminalImageEncoderTests {
    func gradient(_ w: Int, _ h: Int, channels: Int) -> PixelImage {
        var bytes = [UInt8](repeating: 255, count: w * h * channels)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * channels
                bytes[i] = UInt8(x * 255 / max(1, w - 1))
                bytes[i + 1] = UInt8(y * 255 / max(1, h - 1))
                bytes[i + 2] = 128
            }
        }
        return syntheticPicture(w, h, channels, bytes)
    }

    @Test(arguments: [(640, 480, 80, 24, 64, 24), (480, 640, 80, 24, 36, 24), (1000, 100, 80, 24, 80, 4),
                      (40, 20, 1, 1, 1, 1)])
    func symbolsFitTheCellsKeepingTheAspectOfOneByTwoCells(w: Int, h: Int, cols: Int, rows: Int,
                                                           usedCols: Int, usedRows: Int) throws {
        let out = try TerminalImageEncoder.symbols(gradient(w, h, channels: 3), in: TerminalCells(columns: cols, rows: rows))
        #expect(out.format == .symbols && out.width == usedCols && out.height == usedRows, "\(out.width)x\(out.height)")
        let text = String(decoding: out.bytes, as: UTF8.self)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == usedRows)
        #expect(text.hasSuffix("\u{1b}[0m") && !text.hasSuffix("\n"))
        #expect(text.contains("\u{1b}[38;2;") || text.contains("\u{1b}[48;2;"))
    }

    @Test(arguments: [(640, 426, 426), (641, 481, 480), (100, 5, 6), (3, 3, 6)])
    func sixelIsThePictureAtItsPixelSizeInWholeBands(w: Int, h: Int, drawnHeight: Int) throws {
        for channels in [3, 4] {
            let out = try TerminalImageEncoder.sixel(gradient(w, h, channels: channels))
            #expect(out.format == .sixel && out.width == w && out.height == drawnHeight)
            let text = String(decoding: out.bytes, as: UTF8.self)
            #expect(text.hasPrefix("\u{1b}P") && text.contains("\"1;1;\(w);\(drawnHeight)#"), "\(text.prefix(40))")
            #expect(text.hasSuffix("\u{1b}\\\u{1b}[0m"))
        }
    }

    /// Each symbol class draws only its characters; an unknown class draws blocks.
    @Test(arguments: [(SymbolClass.block, 0x2580...0x259F), (.sextant, 0x2500...0x1FB3B), (.ascii, 0x21...0x7E),
                      (SymbolClass(rawValue: 77), 0x2580...0x259F)])
    func eachSymbolClassDrawsOnlyItsCharacters(symbols: SymbolClass, range: ClosedRange<UInt32>) throws {
        let out = try TerminalImageEncoder.symbols(gradient(320, 200, channels: 3),
                                                   in: TerminalCells(columns: 40, rows: 12, symbols: symbols))
        let text = String(decoding: out.bytes, as: UTF8.self).replacing(/\x1b\[[0-9;]*m/, with: "")
        let drawn = Set(text.unicodeScalars.filter { $0 != "\n" && $0 != " " })
        #expect(!drawn.isEmpty && drawn.allSatisfy { range.contains($0.value) },
                "\(symbols.optionName): \(drawn.map { String($0.value, radix: 16) }.sorted())")
    }

    /// The cache key holds the class drawn: none asked and `block` are one key, `sextant` another.
    @Test func theOutputSpecKeysOnTheClassDrawn() {
        let none = OutputSpec(format: .symbols, cells: TerminalCells(columns: 8, rows: 4))
        #expect(none == OutputSpec(format: .symbols, cells: TerminalCells(columns: 8, rows: 4, symbols: .block)))
        #expect(none == OutputSpec(format: .symbols, cells: TerminalCells(columns: 8, rows: 4, symbols: SymbolClass(rawValue: 9))))
        #expect(none != OutputSpec(format: .symbols, cells: TerminalCells(columns: 8, rows: 4, symbols: .sextant)))
    }

    @Test func symbolsWithoutCellsAreAnInvalidArgument() {
        #expect(throws: PickerError(.invalidArgument, "symbols needs cells")) {
            try ImageEncoder.encode(gradient(8, 8, channels: 3), output: OutputSpec(format: .symbols))
        }
        // Cells are kept only for symbols, so other formats never split the render cache on them.
        #expect(OutputSpec(format: .sixel, cells: TerminalCells(columns: 3, rows: 3)).cells == nil)
    }
}
