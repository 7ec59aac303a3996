import PickerProtocol
import Testing
@testable import pickerctl

/// The glyphs pick draws its frame and marks with: chosen by the locale, ASCII outside UTF-8, and
/// the layout the same in both sets.
@Suite struct PickGlyphsTests {
    private func model(names: [String]) -> PickerModel {
        let photos = names.enumerated().map { i, name in
            PhotoInfo(index: i + 1, name: name, path: "A/\(name)", width: 10, height: 10, bytes: 1,
                      format: .jpeg, date: 0, dateSource: .modified, broken: i == 2 ? "truncated" : nil)
        }
        let state = SessionState(name: "s", title: "T", width: 100, height: 100, maxSelection: 10, selectionCount: 1,
                                 album: "A", albumIndex: 1, photo: names[0], photoIndex: 1, photoCount: photos.count,
                                 message: "10x10 px, 1 bytes, JPEG")
        var m = PickerModel(session: state, single: false)
        m.albums.replace([AlbumInfo(index: 1, name: "A", photoCount: photos.count)])
        m.photos.replace(photos)
        m.photosTotal = photos.count
        m.picks = ["A/\(names[1])"]
        m.focus = .photos
        m.notice = "quality 0 is out of range 1…100"
        return m
    }

    private func layout(_ glyphs: PickGlyphs) -> PickLayout { PickLayout(columns: 100, rows: 20, cell: .fallback, glyphs: glyphs) }

    @Test func theLocaleChoosesTheSetAsItChoosesTheSymbols() {
        #expect(PickGlyphs.forLocale(["LANG": "C.UTF-8"]) == .unicode)
        #expect(PickGlyphs.forLocale(["LANG": "C.UTF-8", "LC_ALL": "C"]) == .ascii)
        #expect(PickGlyphs.forLocale(["LANG": "en_US.ISO-8859-1"]) == .ascii)
        #expect(PickGlyphs.forLocale([:]) == .ascii)
        #expect(PickGlyphs.forLocale(["LC_CTYPE": "de_DE.utf8"]) == .unicode)
    }

    @Test func everyScreenRowIsASCIIInTheASCIISetAndTheBarsStayInTheirColumns() {
        var m = model(names: ["a.jpg", "b.jpg", "c.jpg", String(repeating: "long", count: 20) + ".jpg"])
        m.filterEditing = true
        for mode in [PickerModel.Mode.panes, .preview] {
            m.mode = mode
            let ascii = PickRenderer.rows(m, layout(.ascii), graphics: .symbols)
            let unicode = PickRenderer.rows(m, layout(.unicode), graphics: .symbols)
            #expect(Set(ascii.keys) == Set(unicode.keys))
            for (row, text) in ascii {
                #expect(text.text.unicodeScalars.allSatisfy { $0.isASCII }, "row \(row): \(text.text.debugDescription)")
                let bars = Self.columns(of: "|", in: text.text), unicodeBars = Self.columns(of: "│", in: unicode[row]?.text ?? "")
                if !unicodeBars.isEmpty { #expect(bars == unicodeBars, "row \(row)") }
            }
        }
        m.helpShown = true
        #expect(PickRenderer.rows(m, layout(.ascii), graphics: .symbols).values.allSatisfy { $0.text.unicodeScalars.allSatisfy { $0.isASCII } })
    }

    @Test func namesKeepTheirColumnsAsQuestionMarksAndPickerdsMessagesTheirEllipsis() {
        let m = model(names: ["写真.jpg", "café…→.jpg", "c.jpg"])
        let text = PickRenderer.rows(m, layout(.ascii), graphics: .none).values.map(\.text).joined()
        #expect(text.contains("????.jpg") && text.contains("caf???.jpg"), "a ? a column")
        #expect(text.contains("1...100"), "pickerd's message in ASCII")
        let unicode = PickRenderer.rows(m, layout(.unicode), graphics: .none).values.map(\.text).joined()
        #expect(unicode.contains("写真.jpg") && unicode.contains("café…→.jpg"), "names as they are in UTF-8")
        #expect(PickGlyphs.ascii.onScreen("e\u{301}写") == "e??", "a combining mark takes no column, a wide character two")
    }

    @Test func aCutTextEndsInTheSetsEllipsisAndKeepsItsWidth() {
        #expect(PickRenderer.fit("abcdefgh", 6, .ascii) == "abc...")
        #expect(PickRenderer.fit("abcdefgh", 6, .unicode) == "abcde…")
        #expect(PickRenderer.fit("写写写写", 6, .ascii) == "写... ")
        #expect(PickRenderer.fit("abcdefgh", 2, .ascii) == "ab")
    }

    @Test func theHelpLinesUpItsWordsInBothSets() {
        let ascii = PickHelp.lines(.ascii), unicode = PickHelp.lines(.unicode)
        #expect(ascii.count == unicode.count)
        for (a, u) in zip(ascii, unicode) where a.count > 18 {
            #expect(a.dropFirst(18).first == u.dropFirst(18).first || a.hasPrefix("  Tab"), "\(a)\n\(u)")
        }
        #expect(unicode.contains("  Tab  → l  ← h   switch pane (in the grid: move left / right)"))
        #expect(ascii.contains("  Tab  -> l  <- h switch pane (in the grid: move left / right)"))
    }

    /// The (scalar) columns of `bar` in `text` after its escape sequences are taken out.
    static func columns(of bar: Character, in text: String) -> [Int] {
        var column = 0, found: [Int] = [], inEscape = false
        for ch in text {
            if ch == "\u{1b}" { inEscape = true; continue }
            if inEscape { if ch.isLetter { inEscape = false }; continue }
            if ch == bar { found.append(column) }
            column += ch.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } ? 2 : 1
        }
        return found
    }
}

/// `i`'s one-line summary of a photo's details: the least important parts go first when it must fit.
@Suite struct PhotoSummaryTests {
    private func details() -> PhotoDetails {
        var d = PhotoDetails(path: "A/c.jpg", name: "c.jpg", format: .jpeg, width: 5760, height: 3840, bytes: 6_300_000,
                             date: 1_452_612_808, dateSource: .exif)
        d.cameraMake = "Canon"
        d.cameraModel = "Canon EOS 5D Mark III"
        d.lens = "EF24-70mm f/2.8L USM"
        d.exposureTime = .init(1, 200)
        d.fNumber = .init(28, 10)
        d.iso = 1000
        d.focalLength = .init(35, 1)
        return d
    }

    @Test func everyPartInReadingOrderWhenThereIsRoom() {
        let text = PhotoSummary(index: 1, details()).text(fitting: 200, .unicode)
        #expect(text == "Canon EOS 5D Mark III, EF24-70mm f/2.8L USM, 1/200 s f/2.8 ISO 1000 35 mm, 2016-01-12 15:33:28, 5760x3840, 6.3 MB, JPEG")
    }

    @Test func theExposureThenTheFileSizeThenTheLensGoFirst() {
        let summary = PhotoSummary(index: 1, details())
        #expect(summary.text(fitting: 100, .unicode) == "Canon EOS 5D Mark III, EF24-70mm f/2.8L USM, 2016-01-12 15:33:28, 5760x3840, 6.3 MB, JPEG")
        #expect(summary.text(fitting: 60, .unicode) == "Canon EOS 5D Mark III, 2016-01-12 15:33:28, 5760x3840, JPEG")
        #expect(summary.text(fitting: 15, .ascii) == "Canon EOS 5D...")
    }

    @Test func aMakeTheModelRepeatsIsSaidOnceAndEXIFTextIsEscaped() {
        var d = details()
        d.cameraMake = "NIKON CORPORATION"
        d.cameraModel = "NIKON D750\u{1b}[2J"
        #expect(PhotoSummary(index: 1, d).text(fitting: 200, .unicode).hasPrefix("NIKON CORPORATION NIKON D750\\e[2J, "))
    }
}
