import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Calls Tests/tools/termcheck.py: an independent reader of symbol text and sixel sequences.
enum TermCheck {
    struct Symbols: Decodable { var rows: Int; var columns: [Int]; var ends_with_reset: Bool; var cursor_moves: Int }
    struct SymbolComparison: Decodable { var rows_a: Int; var rows_b: Int; var columns_a: [Int]; var columns_b: [Int]
                                         var mean_difference: Double; var compared: Int }
    struct PictureComparison: Decodable { var mean_difference: Double; var compared: Int }
    struct Sixel: Decodable { var raster_width: Int; var raster_height: Int; var decoded_width: Int
                              var decoded_height: Int; var mad: Double; var ends_with_reset: Bool }

    static var script: String { TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/termcheck.py").path }

    static func run<T: Decodable>(_ args: [String], as: T.Type) async throws -> T {
        let r = try await runProcess(TestEnvironment.python, [script] + args)
        guard r.exitCode == 0 else { throw ImageCheck.CheckError.failed("termcheck \(args): \(r.stderr)") }
        return try JSONDecoder().decode(T.self, from: r.stdout)
    }
}

/// Whether the `chafa` command (libchafa's own front end, the reference) is installed.
let chafaCommand = findExecutable("chafa")

/// `get-image`/`preview` with `--format symbols|sixel`: terminal text drawn by libchafa in the
/// daemon, judged against the `chafa` command and against the fitted PNG itself.
/// One daemon for the suite: every test makes a session of its own name and writes in its own folder.
@Suite(.timeLimit(.minutes(15)), .sharedDaemon { library in
    let corpus = TestEnvironment.corpus.root
    // 1800x1200 once upright (EXIF orientation 6): the fitted picture is 3:2.
    try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_6.jpg"), album: "Trip")
    try library.add(corpus.appendingPathComponent("pngsuite/basn6a08.png"), album: "Trip", as: "alpha.png")
}) struct TerminalFormatTests {
    let daemon: LiveDaemon
    let scratch: URL

    init() throws {
        daemon = try SharedDaemon.current
        scratch = try SharedDaemon.scratchFolder()
    }

    private func file(_ name: String) -> URL { scratch.appendingPathComponent(name) }

    /// A session with a `width`x480 pane on `photo`.
    private func session(_ name: String, photo: String = "Landscape_6.jpg", width: Int = 640) async throws {
        await #expect(try daemon.ctl("session", "new", name, "--width", "\(width)", "--height", "480").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "Trip", session: name).exitCode == 0)
        await #expect(try daemon.ctl("select-photo", photo, session: name).exitCode == 0)
    }

    @Test(.enabled(if: chafaCommand != nil && pillowAvailable, "needs the chafa command and /usr/bin/python3 with Pillow"))
    func symbolsHaveChafasCellGridAndColoursForTheSameFittedPicture() async throws {
        try await session("sym")
        let png = file("fit.png")
        await #expect(try daemon.ctl("get-image", "-o", png.path, session: "sym").exitCode == 0)
        // The sextant class is chafa's block+border+sextant+space (the default is block, see TerminalSymbolClassTests).
        let ours = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "80x24", "--symbols", "sextant", session: "sym")
        #expect(ours.exitCode == 0, "\(ours)")
        try ours.stdout.write(to: file("ours.txt"))
        let reference = try await runProcess(chafaCommand ?? "chafa",
                                       ["-f", "symbols", "-c", "full", "--size", "80x24",
                                        "--symbols", "block+border+sextant+space", png.path])
        #expect(reference.exitCode == 0, "\(reference)")
        try reference.stdout.write(to: file("chafa.txt"))

        let grid = try await TermCheck.run(["symbols", file("ours.txt").path], as: TermCheck.Symbols.self)
        // 640x426 in 80x24 cells of 1:2: all 24 rows, 72 columns (the picture's 3:2).
        #expect(grid.rows == 24 && grid.columns == Array(repeating: 72, count: 24), "\(grid)")
        #expect(grid.ends_with_reset && grid.cursor_moves == 0)
        let versus = try await TermCheck.run(["compare-symbols", file("ours.txt").path, file("chafa.txt").path],
                                       as: TermCheck.SymbolComparison.self)
        #expect(versus.rows_a == versus.rows_b && versus.columns_a == versus.columns_b, "\(versus)")
        #expect(versus.compared == 72 * 24)
        #expect(versus.mean_difference < 6, "cell colours differ from chafa's: \(versus.mean_difference)")
        // And the cells show the picture (a mirrored picture scores ~80 here).
        let picture = try await TermCheck.run(["symbols-vs-picture", file("ours.txt").path, png.path],
                                        as: TermCheck.PictureComparison.self)
        #expect(picture.mean_difference < 15, "\(picture)")
        // The reply names the cell grid used.
        let json = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "80x24", "--json", "-o",
                                  file("ours2.txt").path, session: "sym")
        #expect(json.stdoutText.contains("\"width\":72") && json.stdoutText.contains("\"height\":24"), "\(json)")
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow"))
    func sixelIsTheFittedPictureWithRasterAttributesThatFitThePane() async throws {
        try await session("six")
        let png = file("fit.png")
        await #expect(try daemon.ctl("get-image", "-o", png.path, session: "six").exitCode == 0)
        let r = try await daemon.ctl("get-image", "--format", "sixel", session: "six")
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.starts(with: Array("\u{1b}P".utf8)), "a DCS sequence")
        try r.stdout.write(to: file("ours.six"))
        let six = try await TermCheck.run(["sixel", file("ours.six").path, png.path], as: TermCheck.Sixel.self)
        // Fitted 640x426 (426 is whole 6-px bands): raster attributes within the 640x480 pane.
        #expect(six.raster_width == 640 && six.raster_height == 426, "\(six)")
        #expect(six.raster_width <= 640 && six.raster_height <= 480)
        #expect(six.decoded_width == six.raster_width && six.decoded_height == six.raster_height)
        #expect(six.mad < 10, "decoded sixel differs from the fitted PNG: \(six.mad)")
        #expect(six.ends_with_reset)
    }

    /// RGB rows whose byte length is not a multiple of 4 were read short by chafa 1.12's scaler:
    /// sheared sixels and symbols at most widths; and heights that are not whole 6-px bands were
    /// squashed into them. Each sixel must be the fitted picture itself, pixel for pixel.
    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow"),
          arguments: [641, 643, 644, 645, 647, 650, 648])
    func sixelIsTheFittedPictureAtEveryPaneWidth(width: Int) async throws {
        let name = "w\(width)"
        try await session(name, width: width)
        let png = file("\(name).png")
        await #expect(try daemon.ctl("get-image", "-o", png.path, session: name).exitCode == 0)
        let size = try pngSize(Data(contentsOf: png))
        let (fitWidth, fitHeight) = try #require(size)
        #expect(fitWidth == width, "the 3:2 picture fills the pane's width")
        let r = try await daemon.ctl("get-image", "--format", "sixel", "-o", file("\(name).six").path, session: name)
        #expect(r.exitCode == 0, "\(r)")
        let six = try await TermCheck.run(["sixel", file("\(name).six").path, png.path], as: TermCheck.Sixel.self)
        // The fitted width, and the fitted height down to whole bands (all within the pane).
        #expect(six.raster_width == fitWidth && six.raster_height == fitHeight - fitHeight % 6, "\(six)")
        #expect(six.decoded_width == six.raster_width && six.decoded_height == six.raster_height, "\(six)")
        // A sheared sixel scores ~60 here, one squashed into whole bands (644: 429 rows) ~7,
        // the right one ~3.
        #expect(six.mad < 5, "decoded sixel differs from the fitted PNG at width \(width): \(six.mad)")
        // Symbols go through the same chafa scaler.
        let text = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "80x24",
                                  "-o", file("\(name).txt").path, session: name)
        #expect(text.exitCode == 0, "\(text)")
        let cells = try await TermCheck.run(["symbols-vs-picture", file("\(name).txt").path, png.path],
                                      as: TermCheck.PictureComparison.self)
        #expect(cells.mean_difference < 15, "symbols differ from the fitted PNG at width \(width): \(cells)")
    }

    @Test(.enabled(if: chafaCommand != nil && pillowAvailable, "needs the chafa command and /usr/bin/python3 with Pillow"))
    func previewSymbolsDrawTheFullScreenCanvasInTheCells() async throws {
        try await session("pv")
        let png = file("preview.png")
        await #expect(try daemon.ctl("preview", "--width", "1280", "--height", "720", "-o", png.path, session: "pv").exitCode == 0)
        let ours = try await daemon.ctl("preview", "--width", "1280", "--height", "720", "--format", "symbols",
                                  "--cells", "120x40", session: "pv")
        #expect(ours.exitCode == 0, "\(ours)")
        try ours.stdout.write(to: file("preview.txt"))
        let grid = try await TermCheck.run(["symbols", file("preview.txt").path], as: TermCheck.Symbols.self)
        // 16:9 in 120x40 cells of 1:2: 120 columns, 34 rows (chafa rounds 33.75 up).
        #expect(grid.columns.allSatisfy { $0 == 120 } && grid.rows <= 40 && grid.rows >= 33, "\(grid)")
        let picture = try await TermCheck.run(["symbols-vs-picture", file("preview.txt").path, png.path],
                                        as: TermCheck.PictureComparison.self)
        #expect(picture.mean_difference < 15, "\(picture)")
    }

    @Test func eachCellGridIsRenderedAndCachedApart() async throws {
        try await session("cache")
        func grid(_ cells: String) async throws -> (columns: Int, rows: Int) {
            let r = try await daemon.ctl("get-image", "--format", "symbols", "--cells", cells, session: "cache")
            let rows = r.stdoutText.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
            let columns = rows.first.map { $0.replacing(/\x1b\[[0-9;]*m/, with: "").count } ?? 0
            return (columns, rows.count)
        }
        // The 3:2 picture: 72x24 of 80x24, 36x12 of 40x12; asked again, 80x24 is not the cached 40x12.
        let big = try await grid("80x24"), small = try await grid("40x12"), again = try await grid("80x24")
        #expect(big == (72, 24) && small == (36, 12) && again == (72, 24), "\(big) \(small) \(again)")
    }

    @Test func symbolsOfAPictureWithAlphaAreDrawn() async throws {
        try await session("alpha", photo: "alpha.png")
        let r = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "16x8", session: "alpha")
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutText.contains("\u{1b}[38;2;") && r.stdoutText.hasSuffix("\u{1b}[0m\n"))
        #expect(r.stdoutText.split(separator: "\n").count <= 8)
    }

    @Test func symbolsWithoutCellsAreRefused() async throws {
        try await session("nocells")
        // pickerctl checks before it connects.
        let cli = try await daemon.ctl("get-image", "--format", "symbols", session: "nocells")
        #expect(cli.exitCode == 2 && cli.stderr.contains("--cells"), "\(cli)")
        let bad = try await daemon.ctl("get-image", "--format", "symbols", "--cells", "0x24", session: "nocells")
        #expect(bad.exitCode == 2, "\(bad)")
        // The daemon refuses too, for clients that skip the check.
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "terminal-format-test")
        do {
            _ = try conn.call(.getImage(ImageRequest(session: "nocells", format: .symbols)))
            Issue.record("symbols without cells were answered")
        } catch {
            #expect(error == .server(PickerError(.invalidArgument, "symbols needs cells")), "\(error)")
        }
        do {
            _ = try conn.call(.preview(PreviewRequest(session: "nocells", width: 640, height: 480, format: .symbols)))
            Issue.record("preview symbols without cells were answered")
        } catch {
            #expect(error == .server(PickerError(.invalidArgument, "symbols needs cells")), "\(error)")
        }
    }

    @Test func capabilitiesAdvertiseSixelAndSymbols() async throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "terminal-format-test")
        #expect(conn.capabilities.outputFormats.contains(.sixel))
        #expect(conn.capabilities.outputFormats.contains(.symbols))
        let inputValues = conn.capabilities.inputFormats.map(\.rawValue)
        #expect(!inputValues.contains(ImageFormat.sixel.rawValue) && !inputValues.contains(ImageFormat.symbols.rawValue))
    }

    @Test(.enabled(if: findExecutable("script") != nil, "needs script(1) for a pseudo-terminal"))
    func terminalTextMayGoToATerminalButPNGStillMayNot() async throws {
        try await session("tty")
        let ctl = "\(TestEnvironment.pickerctl.path) --socket \(daemon.socketPath) --session tty"
        let text = try await runProcess(findExecutable("script") ?? "script",
                                  ["-qec", "\(ctl) get-image --format symbols --cells 40x12; echo \"rc=$?\"", "/dev/null"])
        #expect(text.stdoutText.contains("rc=0") && text.stdoutText.contains("\u{1b}[38;2;"), "\(text)")
        let png = try await runProcess(findExecutable("script") ?? "script",
                                 ["-qec", "\(ctl) get-image; echo \"rc=$?\"", "/dev/null"])
        #expect(png.stdoutText.contains("rc=2") && png.stdoutText.contains("refusing"), "\(png)")
    }
}
