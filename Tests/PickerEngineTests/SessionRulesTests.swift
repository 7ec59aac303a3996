import Foundation
import PickerProtocol
import Testing
@testable import PickerEngine

/// One validator for requests and restored sessions.
@Suite struct SessionRulesTests {
    private func valid() throws -> Session {
        var s = try Session(NewSession(name: "good", width: 800, height: 600, maxSelection: 3, title: "Trip"))
        s.album = "2024/Kyoto"
        s.photo = "2024/Kyoto/a.jpg"
        s.selection = ["2024/Kyoto/a.jpg", "b.png"]
        return s
    }

    @Test func titlesWithControlCharactersAreRefusedAsInvalidArguments() {
        for title in ["a\u{1b}[2Jb", "line\nbreak", "csi\u{9b}31m", "osc\u{1b}]52;c;SGVsbG8=\u{07}", "del\u{7f}", "cr\r"] {
            do {
                _ = try Session(NewSession(name: "s", width: 100, height: nil, title: title))
                Issue.record("title \(title.debugDescription) was accepted")
            } catch {
                #expect(error.code == .invalidArgument)
                #expect(error.message.contains("control characters"))
                #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) })
            }
        }
    }

    @Test func titlesOfPrintableTextUpTo256BytesAreAccepted() throws {
        #expect(try Session(NewSession(name: "s", width: 100, height: nil, title: "🌸 Hanami 🌸")).title == "🌸 Hanami 🌸")
        _ = try Session(NewSession(name: "s", width: 100, height: nil, title: String(repeating: "x", count: 256)))
        #expect(throws: PickerError.self) {
            try Session(NewSession(name: "s", width: 100, height: nil, title: String(repeating: "x", count: 257)))
        }
    }

    @Test func sessionNamesWithC1ControlsAreRefused() {
        #expect(throws: PickerError.self) { try SessionRules.validate(name: "a\u{9b}b") }
        #expect(throws: PickerError.self) { try SessionRules.validate(name: "a\u{85}b") }
    }

    @Test func aWholeValidSessionPasses() throws {
        try SessionRules.validate(try valid())
    }

    @Test func restoredSessionsBreakingARequestRuleAreRejected() throws {
        var pane = try valid(); pane.width = 2_000_000_000
        var height = try valid(); height.height = 0
        var title = try valid(); title.title = "evil\u{1b}]52;c;AAAA\u{07}"
        var maxSel = try valid(); maxSel.maxSelection = 1_000_000
        var tooMany = try valid(); tooMany.selection = Array(repeating: "a.jpg", count: 4)
        var escape = try valid(); escape.selection = ["../../etc/passwd"]
        var album = try valid(); album.album = "../outside"
        var photo = try valid(); photo.photo = "/etc/passwd"
        var name = try valid(); name.name = "a/b"
        for bad in [pane, height, title, maxSel, tooMany, escape, album, photo, name] {
            #expect(throws: PickerError.self) { try SessionRules.validate(bad) }
        }
    }
}

/// `sessions.json` read back: bad entries dropped, good ones kept.
@Suite struct SavedSessionsTests {
    @Test func aTamperedFileKeepsOnlyTheValidSessions() throws {
        let good = try Session(NewSession(name: "good", width: 640, height: 480))
        let bad = [
            #"{"name":"huge","title":"t","width":2000000000,"height":100,"maxSelection":10,"selection":[]}"#,
            #"{"name":"esc","title":"\u001b[2J","width":100,"maxSelection":10,"selection":[]}"#,
            #"{"name":"dots","title":"t","width":100,"maxSelection":10,"selection":["../x.jpg"]}"#,
            #"{"name":"wrongtype","title":"t","width":"wide","maxSelection":10,"selection":[]}"#,
            #"{"name":"good","title":"duplicate","width":100,"maxSelection":10,"selection":[]}"#,
        ]
        let goodJSON = try #require(String(bytes: try JSONEncoder().encode(good), encoding: .utf8))
        let json = #"{"version":1,"sessions":["# + ([goodJSON] + bad).joined(separator: ",") + "]}"
        let restored = try SavedSessions.decode(Array(json.utf8), from: "sessions.json")
        #expect(Array(restored.keys) == ["good"])
        #expect(restored["good"] == good)
    }

    @Test func aMillionEntrySelectionIsDropped() throws {
        let picks = Array(repeating: "\"a.jpg\"", count: 1_000_000).joined(separator: ",")
        let json = #"{"version":1,"sessions":[{"name":"big","title":"t","width":100,"maxSelection":1000,"selection":["# + picks + "]}]}"
        #expect(try SavedSessions.decode(Array(json.utf8), from: "sessions.json").isEmpty)
    }
}

/// Canvas sizes are checked before anything is allocated.
@Suite struct CanvasLimitTests {
    @Test func aCanvasThatWouldOverflowOrExceedTheLimitThrowsInsteadOfAllocating() {
        for (w, h) in [(2_000_000_000, 132), (Int.max, 2), (8193, 8192), (1 << 40, 1 << 40)] {
            do {
                _ = try Compositor.canvas(PixelSize(width: w, height: h), colour: .black)
                Issue.record("a \(w)x\(h) canvas was made")
            } catch {
                #expect(error.code == .imageTooLarge)
            }
        }
    }

    @Test func theLargestPaneCanvasIsAllowed() throws {
        #expect(try PixelImage.canvasByteCount(width: 8192, height: 8192, channels: 3) == 8192 * 8192 * 3)
    }

    @Test func gridPagesStayWithinTheCanvasLimitForHugeAlbumsWithoutAPaneHeight() {
        for cell in [16, 100, 1024] {
            for paneWidth in [16, 800, 8192] {
                let layout = GridLayout(paneWidth: paneWidth, paneHeight: nil, cellSize: cell, count: 100_000)
                for page in [1, layout.pages] {
                    #expect(layout.height(ofPage: page) <= GridLayout.maxPageHeight)
                    #expect(layout.width * layout.height(ofPage: page) <= PixelImage.maxCanvasPixels)
                }
                #expect(layout.slots(onPage: layout.pages).upperBound == 100_000)
            }
        }
    }

    @Test func aSmallAlbumWithoutAPaneHeightIsStillOnePage() {
        let layout = GridLayout(paneWidth: 800, paneHeight: nil, cellSize: 100, count: 30)
        #expect(layout.pages == 1)
    }
}
