import Foundation
import PickerClient
import PickerProtocol
import Testing

/// `--symbols block|sextant|ascii` through the real daemon: each class draws only its characters,
/// in `get-image`, `preview` and `thumbnails`; the render cache keeps classes apart; the reply names
/// the class drawn; without `--symbols` the locale decides (PROTOCOL.md, "Symbol classes").
@Suite(.timeLimit(.minutes(10)), .sharedDaemon { library in
    let corpus = TestEnvironment.corpus.root
    try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_6.jpg"), album: "Trip")
    try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "Trip")
}) struct TerminalSymbolClassTests {
    let daemon: LiveDaemon

    init() throws {
        daemon = try SharedDaemon.current
    }

    /// The characters of symbol text, escape sequences and row breaks left out.
    static func characters(_ text: String) -> Set<Unicode.Scalar> {
        Set(text.replacing(/\x1b\[[0-9;]*m/, with: "").unicodeScalars.filter { $0 != "\n" })
    }

    static func isBlock(_ c: Unicode.Scalar) -> Bool { c == " " || (0x2580...0x259F).contains(c.value) }
    static func isSextant(_ c: Unicode.Scalar) -> Bool { (0x1FB00...0x1FB3B).contains(c.value) }
    static func isBorder(_ c: Unicode.Scalar) -> Bool { (0x2500...0x257F).contains(c.value) }
    static func isPrintableASCII(_ c: Unicode.Scalar) -> Bool { (0x20...0x7E).contains(c.value) }

    /// Checks that `text` uses only `symbols`' characters (and is a picture: coloured, several symbols).
    static func expectOnly(_ symbols: SymbolClass, in text: String, _ what: String) {
        let chars = characters(text)
        #expect(text.contains("\u{1b}[38;2;") && chars.count > 3, "\(what): no picture: \(text.prefix(200))")
        switch symbols {
        case .block:
            let other = chars.filter { !isBlock($0) }
            #expect(other.isEmpty, "\(what) as block used \(other.map { String(format: "U+%04X", $0.value) })")
        case .sextant:
            let other = chars.filter { !isBlock($0) && !isSextant($0) && !isBorder($0) }
            #expect(other.isEmpty, "\(what) as sextant used \(other.map { String(format: "U+%04X", $0.value) })")
            #expect(chars.contains(where: isSextant), "\(what) as sextant drew no sextant")
        default:
            let other = chars.filter { !isPrintableASCII($0) }
            #expect(other.isEmpty, "\(what) as ascii used \(other.map { String(format: "U+%04X", $0.value) })")
            #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(what) as ascii is not ASCII bytes")
        }
    }

    private func session(_ name: String) async throws {
        await #expect(try daemon.ctl("session", "new", name, "--width", "640", "--height", "480").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Trip", session: name).exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "Landscape_6.jpg", session: name).exitCode == 0)
    }

    @Test(arguments: ["block", "sextant", "ascii"])
    func eachClassDrawsOnlyItsCharactersInEveryRequest(name: String) async throws {
        let symbols = try #require(SymbolClass(optionName: name))
        try await session("c-\(name)")
        let asks: [(String, [String])] = [
            ("get-image", ["get-image", "--format", "symbols", "--cells", "80x24", "--symbols", name]),
            ("preview", ["preview", "--width", "1280", "--height", "720", "--format", "symbols", "--cells", "120x40", "--symbols", name]),
            ("thumbnails", ["thumbnails", "--format", "symbols", "--cells", "60x20", "--symbols", name]),
        ]
        for (what, args) in asks {
            let r = try await daemon.ctl(args: args, session: "c-\(name)")
            #expect(r.exitCode == 0, "\(what): \(r)")
            Self.expectOnly(symbols, in: r.stdoutText, what)
        }
    }

    /// One photo and cell grid asked in each class in turn, twice: never a cached picture of another class.
    @Test func theRenderCacheKeepsClassesApart() async throws {
        try await session("cache")
        for name in ["sextant", "block", "ascii", "sextant", "block"] {
            let r = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "40x12", "--symbols", name, session: "cache")
            #expect(r.exitCode == 0, "\(r)")
            Self.expectOnly(try #require(SymbolClass(optionName: name)), in: r.stdoutText, "get-image --symbols \(name)")
        }
    }

    /// What a client sees on the wire: the reply names the class drawn; a request naming none (every
    /// client from before classes) is drawn as block with no entry; an unknown class is drawn as block.
    @Test func theReplyNamesTheClassDrawnAndNoClassIsBlock() async throws {
        try await session("wire")
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "symbol-class-test")
        func ask(_ symbols: SymbolClass?) throws -> EncodedImage {
            let cells = TerminalCells(columns: 40, rows: 12, symbols: symbols)
            guard case .image(let image) = try conn.call(.getImage(ImageRequest(session: "wire", format: .symbols, cells: cells))) else {
                throw PickerError(.internal, "not an image")
            }
            return image
        }
        let old = try ask(nil)
        #expect(old.symbols == nil)
        Self.expectOnly(.block, in: String(decoding: old.data, as: UTF8.self), "no class asked")
        let ascii = try ask(.ascii)
        #expect(ascii.symbols == .ascii)
        let newer = try ask(SymbolClass(rawValue: 200))
        #expect(newer.symbols == .block)
        Self.expectOnly(.block, in: String(decoding: newer.data, as: UTF8.self), "class 200")
        // The grid answers too; geometry only draws nothing and names nothing.
        let cells = TerminalCells(columns: 60, rows: 20, symbols: .sextant)
        guard case .thumbnails(let sheet) = try conn.call(.thumbnails(ThumbnailRequest(session: "wire", format: .symbols, cells: cells))),
              case .thumbnails(let geometry) = try conn.call(.thumbnails(ThumbnailRequest(session: "wire", geometryOnly: true,
                                                                                          format: .symbols, cells: cells))) else {
            Issue.record("no thumbnails reply")
            return
        }
        #expect(sheet.image?.symbols == .sextant && geometry.image == nil)
    }

    /// Without `--symbols`: ascii when the locale is not UTF-8, else block; and `--symbols` is checked.
    @Test func theLocaleChoosesTheDefaultAndTheOptionIsChecked() async throws {
        try await session("locale")
        func getImage(_ env: [String: String], _ extra: [String] = []) async throws -> CommandResult {
            try await runProcess(TestEnvironment.pickerctl.path,
                                 ["--socket", daemon.socketPath, "--session", "locale", "get-image", "--format", "symbols",
                                  "--cells", "40x12"] + extra, environment: ["PATH": "/usr/bin:/bin"].merging(env) { _, new in new })
        }
        for (env, expected) in [(["LANG": "C"], SymbolClass.ascii), ([:], .ascii), (["LANG": "en_US.ISO-8859-1"], .ascii),
                                (["LANG": "C.UTF-8"], .block), (["LANG": "C", "LC_CTYPE": "en_US.utf8"], .block),
                                (["LANG": "C.UTF-8", "LC_ALL": "POSIX"], .ascii), (["LANG": "C.UTF-8", "TERM": "xterm-kitty"], .sextant)] {
            let r = try await getImage(env)
            #expect(r.exitCode == 0, "\(env): \(r)")
            Self.expectOnly(expected, in: r.stdoutText, "locale \(env)")
        }
        let bad = try await getImage(["LANG": "C.UTF-8"], ["--symbols", "braille"])
        #expect(bad.exitCode == 2 && bad.stderr.contains("--symbols must be block, sextant, ascii"), "\(bad)")
        let png = try await daemon.ctl("get-image", "--symbols", "block", "-o", "/dev/null", session: "locale")
        #expect(png.exitCode == 2 && png.stderr.contains("--symbols goes with --format symbols"), "\(png)")
    }
}
