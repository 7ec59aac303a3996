import PickerProtocol
import Testing

/// The symbol class of `symbols` pictures (PROTOCOL.md, "Symbol classes"): an extension entry
/// (tag 1) of `getImage`, `preview` and `thumbnails`, answered in `image` and `thumbnailsReply`.
@Suite struct SymbolClassTests {
    private func frame(_ label: String) throws -> Frame {
        let v = try #require(ProtocolDocument.extended.first { $0.label == label }, "no block '\(label)' in PROTOCOL.md")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(v.bytes)
        return try #require(try decoder.next())
    }

    @Test func theDocumentsSymbolClassFramesDecodeAndReencodeByteForByte() throws {
        let get = try frame("getImage id=66 symbols asking for ascii")
        let asked = ImageRequest(session: "main", format: .symbols, cells: TerminalCells(columns: 80, rows: 24, symbols: .ascii))
        #expect(try Request(frame: get) == .getImage(asked))
        #expect(Request.getImage(asked).frame(id: 66) == get)

        let reply = try frame("image id=66 symbols drawn as ascii")
        let drawn = EncodedImage(format: .symbols, width: 72, height: 24, data: Array("\u{1b}[0m".utf8))
        #expect(try Reply(frame: reply) == .image(EncodedImage(format: .symbols, width: 72, height: 24,
                                                                data: drawn.data, symbols: .ascii)))
        #expect(Reply.image(drawn.answering(asked.cells)).frame(id: 66) == reply)

        let preview = try frame("preview id=67 symbols asking for sextant")
        let full = PreviewRequest(session: "main", width: 1280, height: 720, format: .symbols,
                                  cells: TerminalCells(columns: 120, rows: 40, symbols: .sextant))
        #expect(try Request(frame: preview) == .preview(full))
        #expect(Request.preview(full).frame(id: 67) == preview)
    }

    /// Old client, new server: no class asked, the released request bytes, and a reply without an area.
    @Test func aRequestWithoutAClassIsTheReleasedFrameAndItsReplyHasNoArea() throws {
        let v1 = try #require(ProtocolDocument.vectors.first { $0.label == "getImage id=60 symbols" })
        let old = ImageRequest(session: "main", format: .symbols, cells: TerminalCells(columns: 80, rows: 24))
        #expect(Request.getImage(old).frame(id: 60).encoded() == v1.bytes)
        let image = EncodedImage(format: .symbols, width: 72, height: 24, data: [0x1b, 0x5b, 0x30, 0x6d])
        let v1Reply = try #require(ProtocolDocument.vectors.first { $0.label == "image id=60 symbols" })
        #expect(Reply.image(image.answering(old.cells)).frame(id: 60).encoded() == v1Reply.bytes)
        #expect(old.cells?.drawnSymbols == .block)
    }

    @Test func everyRequestCarriesTheClassAndTheGridReplyAnswersIt() throws {
        let cells = TerminalCells(columns: 60, rows: 20, symbols: .sextant)
        let grid = ThumbnailRequest(session: "s", format: .symbols, cells: cells)
        #expect(try Request(frame: Request.thumbnails(grid).frame(id: 3)) == .thumbnails(grid))
        let sheet = ThumbnailSheet(geometry: GridGeometry(width: 100, height: 100, cellSize: 100, spacing: 10, padding: 16,
                                                          columns: 1, rows: 1, page: 1, pages: 1, cells: []),
                                   image: EncodedImage(format: .symbols, width: 60, height: 20, data: [0x20]).answering(cells))
        #expect(try Reply(frame: Reply.thumbnails(sheet).frame(id: 3)) == .thumbnails(sheet))
        #expect(sheet.image?.symbols == .sextant)
        // A class means nothing to the other formats: their replies carry no entry.
        #expect(EncodedImage(format: .png, width: 1, height: 1, data: []).answering(cells).symbols == nil)
    }

    /// New client, this server: a class it does not know is drawn as block, and the reply says so.
    @Test func anUnknownClassIsKeptAndDrawnAsBlock() throws {
        let newer = TerminalCells(columns: 10, rows: 5, symbols: SymbolClass(rawValue: 9))
        let request = ImageRequest(session: "s", format: .symbols, cells: newer)
        guard case .getImage(let decoded) = try Request(frame: Request.getImage(request).frame(id: 4)) else {
            Issue.record("not a getImage")
            return
        }
        #expect(decoded.cells?.symbols?.rawValue == 9 && decoded.cells?.symbols?.isKnown == false)
        #expect(decoded.cells?.drawnSymbols == .block)
        #expect(EncodedImage(format: .symbols, width: 1, height: 1, data: []).answering(decoded.cells).symbols == .block)
        #expect(SymbolClass(rawValue: 9).optionName == "class-9")
        #expect(SymbolClass.allCases.map(\.optionName) == ["block", "sextant", "ascii"])
    }

    @Test func aClassEntryOfAnotherSizeIsMalformed() {
        let base = Request.getImage(ImageRequest(session: "s", format: .symbols, cells: TerminalCells(columns: 8, rows: 4))).frame(id: 5)
        for area: [UInt8] in [[1, 0, 0, 0, 0], [1, 0, 0, 0, 2, 0, 1], [1, 0, 0, 0, 1]] {
            var frame = base
            frame.payload += area
            #expect(thrownError { () throws(PickerError) in try Request(frame: frame) }?.code == .malformedFrame, "\(area)")
        }
    }
}
