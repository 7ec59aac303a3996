import Foundation
import PickerClient
import PickerProtocol
import Testing

/// `thumbnails` in the terminal formats: the same grid page (overlays, badges, outline) as the
/// PNG, encoded by libchafa in the daemon, with the geometry still in the page's pixels.
@Suite(.timeLimit(.minutes(15))) struct ThumbnailFormatTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() throws {
        library = try TemporaryLibrary()
        let source = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        for (i, name) in ["Landscape_1.jpg", "Landscape_3.jpg", "Landscape_6.jpg", "Landscape_8.jpg"].enumerated() {
            try library.add(source.appendingPathComponent(name), album: "Trip", as: "p\(i + 1).jpg")
        }
        daemon = try LiveDaemon(library: library.url)
        #expect(try daemon.ctl("session", "new", "g", "--width", "643", "--height", "480").exitCode == 0)
        #expect(try daemon.ctl("select-album", "Trip", session: "g").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "p2.jpg", session: "g").exitCode == 0)
        #expect(try daemon.ctl("toggle", "p2.jpg", session: "g").exitCode == 0)
    }

    private func file(_ name: String) -> URL { daemon.directory.appendingPathComponent(name) }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow"))
    func sixelGridIsThePNGPagePixelForPixel() throws {
        let png = file("grid.png")
        #expect(try daemon.ctl("thumbnails", "-o", png.path, session: "g").exitCode == 0)
        let r = try daemon.ctl("thumbnails", "--format", "sixel", "-o", file("grid.six").path, session: "g")
        #expect(r.exitCode == 0, "\(r)")
        let (width, height) = try #require(try pngSize(Data(contentsOf: png)))
        let six = try TermCheck.run(["sixel", file("grid.six").path, png.path], as: TermCheck.Sixel.self)
        #expect(six.raster_width == width && six.raster_height == height - height % 6, "\(six) for \(width)x\(height)")
        #expect(six.decoded_width == six.raster_width && six.decoded_height == six.raster_height)
        #expect(six.mad < 5, "decoded sixel differs from the PNG page: \(six.mad)")
        #expect(six.ends_with_reset)
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow"))
    func symbolsGridDrawsThePNGPageInTheCells() throws {
        let png = file("grid.png")
        #expect(try daemon.ctl("thumbnails", "-o", png.path, session: "g").exitCode == 0)
        let r = try daemon.ctl("thumbnails", "--format", "symbols", "--cells", "80x24", "-o", file("grid.txt").path, session: "g")
        #expect(r.exitCode == 0, "\(r)")
        let symbols = try TermCheck.run(["symbols", file("grid.txt").path], as: TermCheck.Symbols.self)
        #expect(symbols.rows <= 24 && symbols.columns.allSatisfy { $0 <= 80 } && symbols.columns.contains(80), "\(symbols)")
        #expect(symbols.cursor_moves == 0 && symbols.ends_with_reset)
        let compared = try TermCheck.run(["symbols-vs-picture", file("grid.txt").path, png.path], as: TermCheck.PictureComparison.self)
        #expect(compared.mean_difference < 15, "symbols differ from the PNG page: \(compared)")
    }

    @Test func geometryStaysInPixelsWhateverTheFormat() throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "thumbnail-format-test")
        func sheet(_ format: ImageFormat, _ cells: TerminalCells? = nil) throws -> ThumbnailSheet {
            guard case .thumbnails(let s) = try conn.call(.thumbnails(ThumbnailRequest(session: "g", format: format, cells: cells))) else {
                throw ImageCheck.CheckError.failed("not a thumbnails reply")
            }
            return s
        }
        let png = try sheet(.png), six = try sheet(.sixel), sym = try sheet(.symbols, TerminalCells(columns: 60, rows: 20))
        #expect(png.geometry == six.geometry && png.geometry == sym.geometry)
        #expect(png.geometry.cells.first { $0.name == "p2.jpg" }?.selected == true)
        #expect(png.image?.format == .png && six.image?.format == .sixel && sym.image?.format == .symbols)
        #expect(six.image?.width == png.geometry.width)
        // Symbols: the reply's image size is the cell grid used, the page's aspect at 1:2 cells.
        let used = try #require(sym.image)
        #expect(used.width == 60 && used.height <= 20, "\(used.width)x\(used.height)")
        #expect(String(decoding: used.data, as: UTF8.self).split(separator: "\n").count == used.height)
    }

    @Test func symbolsGridWithoutCellsIsRefused() throws {
        let cli = try daemon.ctl("thumbnails", "--format", "symbols", session: "g")
        #expect(cli.exitCode == 2 && cli.stderr.contains("--cells"), "\(cli)")
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "thumbnail-format-test")
        do {
            _ = try conn.call(.thumbnails(ThumbnailRequest(session: "g", format: .symbols)))
            Issue.record("a symbols grid without cells was answered")
        } catch {
            #expect(error == .server(PickerError(.invalidArgument, "symbols needs cells")), "\(error)")
        }
    }
}
