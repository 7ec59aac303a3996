import Foundation
import Testing

/// The gallery design through pickerctl: pick list with a limit, thumbnail grid, preview, shared thumbnails.
@Suite(.timeLimit(.minutes(15))) struct GalleryTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() throws {
        library = try TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        for n in [1, 3, 6, 8] {
            try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_\(n).jpg"), album: "Trip")
        }
        try library.add(corpus.appendingPathComponent("exif-orientation/hopper_reference.webp"), album: "Pets")
        try library.add(corpus.appendingPathComponent("pngsuite/basn6a08.png"), album: "Pets", as: "alpha.png")
        daemon = try LiveDaemon(library: library.url)
    }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    @Test func pickLimitAcceptsExactlyNAndRefusesTheNextChangingNothing() throws {
        #expect(try daemon.ctl("session", "new", "--width", "600", "--max-selection", "3").exitCode == 0)
        #expect(try daemon.ctl("select-album", "Trip").exitCode == 0)
        for i in 1...3 { #expect(try daemon.ctl("toggle", "--index", "\(i)").exitCode == 0) }
        let refused = try daemon.ctl("toggle", "--index", "4")
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("limit 3"), "\(refused.stderr)")
        let sel = try json(try daemon.ctl("selection", "--json"))
        #expect((sel["photos"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Landscape_1.jpg", "Landscape_3.jpg", "Landscape_6.jpg"])
        // Toggling a picked photo removes it; then there is room again.
        #expect(try daemon.ctl("toggle", "Landscape_3.jpg").exitCode == 0)
        #expect(try daemon.ctl("toggle", "--index", "4").exitCode == 0)
        #expect(try daemon.ctl("status", "--json").stdoutText.contains("\"selection_count\":3"))
        #expect(try daemon.ctl("clear-selection").exitCode == 0)
        #expect(try daemon.ctl("status", "--json").stdoutText.contains("\"selection_count\":0"))
    }

    @Test func pickOrderIsKeptAcrossAlbumsWithAbsolutePaths() throws {
        _ = try daemon.ctl("session", "new", "o", "--width", "600")
        _ = try daemon.ctl("select-album", "Trip", session: "o")
        _ = try daemon.ctl("toggle", "Landscape_6.jpg", session: "o")
        _ = try daemon.ctl("select-album", "Pets", session: "o")
        _ = try daemon.ctl("toggle", "alpha.png", session: "o")
        _ = try daemon.ctl("select-album", "Trip", session: "o")
        _ = try daemon.ctl("toggle", "Landscape_1.jpg", session: "o")
        let photos = try json(try daemon.ctl("selection", "--json", session: "o"))["photos"] as? [[String: Any]] ?? []
        #expect(photos.map { $0["name"] as? String } == ["Landscape_6.jpg", "alpha.png", "Landscape_1.jpg"])
        #expect(photos.map { $0["album"] as? String } == ["Trip", "Pets", "Trip"])
        #expect(photos.first?["width"] as? Int == 1800 && photos.first?["height"] as? Int == 1200)
        for p in photos {
            let abs = p["absolute_path"] as? String ?? ""
            #expect(abs.hasPrefix("/") && FileManager.default.fileExists(atPath: abs), "\(abs)")
        }
        // A photo deleted from disk drops out quietly (after the library notices).
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("Pets/alpha.png"))
        daemon.stop()
        try daemon.start()
        let after = try json(try daemon.ctl("selection", "--json", session: "o"))["photos"] as? [[String: Any]] ?? []
        #expect(after.map { $0["name"] as? String } == ["Landscape_6.jpg", "Landscape_1.jpg"])
    }

    @Test func gridSizeFollowsPaneWidthAndCellSize() throws {
        for (width, size) in [(100, 100), (150, 100), (300, 100), (600, 100), (1000, 100), (600, 64), (400, 150)] {
            let name = "g\(width)-\(size)"
            _ = try daemon.ctl("session", "new", name, "--width", "\(width)")
            _ = try daemon.ctl("select-album", "Trip", session: name)
            let g = try json(try daemon.ctl("thumbnails", "--json", "--size", "\(size)", session: name))
            let columns = max(1, (width - 32 + 10) / (size + 10))
            let rows = (4 + columns - 1) / columns
            #expect(g["columns"] as? Int == columns, "\(name): \(g)")
            #expect(g["rows"] as? Int == rows)
            #expect(g["width"] as? Int == max(width, 32 + columns * size + (columns - 1) * 10))
            #expect(g["height"] as? Int == 32 + rows * size + (rows - 1) * 10)
            let out = daemon.directory.appendingPathComponent("\(name).png")
            #expect(try daemon.ctl("thumbnails", "--size", "\(size)", "-o", out.path, session: name).exitCode == 0)
            let info = try ImageCheck.info(out)
            #expect(info.width == g["width"] as? Int && info.height == g["height"] as? Int)
        }
    }

    @Test func paneHeightPagesTheGrid() throws {
        _ = try daemon.ctl("session", "new", "p", "--width", "142", "--height", "142")  // one 100px cell per page
        _ = try daemon.ctl("select-album", "Trip", session: "p")
        let g = try json(try daemon.ctl("thumbnails", "--json", "--page", "4", session: "p"))
        #expect(g["pages"] as? Int == 4 && g["page"] as? Int == 4)
        #expect((g["cells"] as? [[String: Any]])?.first?["name"] as? String == "Landscape_8.jpg")
        #expect(try daemon.ctl("thumbnails", "--json", "--page", "5", session: "p").exitCode == 4)  // past the end: not found
    }

    @Test func exactlyThePickedCellsAreBrighter() throws {
        _ = try daemon.ctl("session", "new", "b", "--width", "600")
        _ = try daemon.ctl("select-album", "Trip", session: "b")
        let plain = daemon.directory.appendingPathComponent("plain.png")
        #expect(try daemon.ctl("thumbnails", "-o", plain.path, session: "b").exitCode == 0)
        _ = try daemon.ctl("toggle", "--index", "2", session: "b")
        _ = try daemon.ctl("toggle", "--index", "4", session: "b")
        let picked = daemon.directory.appendingPathComponent("picked.png")
        #expect(try daemon.ctl("thumbnails", "-o", picked.path, session: "b").exitCode == 0)
        let g = try json(try daemon.ctl("thumbnails", "--json", session: "b"))
        let cells = g["cells"] as? [[String: Any]] ?? []
        // Inner boxes stay clear of the anti-aliased corners and of the pick badge (top right, y+5…y+30).
        let boxes = cells.map { [($0["x"] as? Int ?? 0) + 10, ($0["y"] as? Int ?? 0) + 35, 80, 55] }
        let before = try ImageCheck.regions(plain, boxes)
        let after = try ImageCheck.regions(picked, boxes)
        for (i, cell) in cells.enumerated() {
            let selected = cell["selected"] as? Bool ?? false
            if selected {
                #expect(after[i] > before[i] + 20, "cell \(i + 1) should be brighter: \(before[i]) → \(after[i])")
                // 40% white: new = old + 0.4 × (255 − old), within rounding.
                #expect(abs(after[i] - (before[i] + 0.4 * (255 - before[i]))) < 3)
            } else {
                #expect(abs(after[i] - before[i]) < 0.5, "cell \(i + 1) should be unchanged")
            }
        }
        #expect(cells.map { $0["selected"] as? Bool } == [false, true, false, true])
    }

    @Test func previewScalesALargePhotoDownToFitTheScreenOnBlack() throws {
        _ = try daemon.ctl("session", "new", "v", "--width", "200")
        _ = try daemon.ctl("select-album", "Trip", session: "v")
        _ = try daemon.ctl("select-photo", "Landscape_6.jpg", session: "v")
        let out = daemon.directory.appendingPathComponent("preview.png")
        #expect(try daemon.ctl("preview", "-o", out.path, session: "v").exitCode == 0)
        let info = try ImageCheck.info(out)
        #expect(info.width == 1920 && info.height == 1080)
        // 1800x1200 scaled down to 1620x1080: 150 px black bars left and right.
        let m = try ImageCheck.regions(out, [[0, 0, 140, 1080], [1780, 0, 140, 1080], [200, 100, 1500, 800]])
        #expect(m[0] < 1 && m[1] < 1, "bars must be black: \(m)")
        #expect(m[2] > 30)
        let small = daemon.directory.appendingPathComponent("small.png")
        #expect(try daemon.ctl("preview", "--width", "300", "--height", "300", "-o", small.path, session: "v").exitCode == 0)
        let m2 = try ImageCheck.regions(small, [[0, 0, 300, 45], [0, 255, 300, 45]])
        #expect(m2[0] < 1 && m2[1] < 1, "letterbox bars top and bottom: \(m2)")
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to make and judge the pictures"))
    func previewScalesASmallPhotoUpToFillTheFittedRectangle() throws {
        // 200x100 white into 1920x1080: ×9.6 → 1920x960, 60 px black bars above and below.
        let small = try TemporaryLibrary()
        try ClaimImages.solid(small.url.appendingPathComponent("white.png"), width: 200, height: 100, rgb: (255, 255, 255))
        let d = try LiveDaemon(library: small.url)
        _ = try d.ctl("session", "new", "--width", "100")
        _ = try d.ctl("select-album", "--index", "2")
        _ = try d.ctl("select-photo", "white.png")
        let out = d.directory.appendingPathComponent("up.png")
        let r = try d.ctl("preview", "-o", out.path)
        #expect(r.exitCode == 0, "\(r)")
        let info = try ImageCheck.info(out)
        #expect(info.width == 1920 && info.height == 1080)
        let m = try ImageCheck.regions(out, [[0, 0, 1920, 58], [0, 1022, 1920, 58],   // bars
                                             [0, 62, 1920, 956],                      // inside the fitted rectangle
                                             [0, 60, 1920, 1], [0, 1019, 1920, 1],    // its first and last rows
                                             [0, 60, 1, 960], [1919, 60, 1, 960]])    // its first and last columns
        #expect(m[0] < 1 && m[1] < 1, "bars must be black: \(m)")
        #expect(m[2] > 250, "the picture must fill the fitted rectangle: \(m)")
        #expect(m[3...].allSatisfy { $0 > 200 }, "the picture must reach the fitted rectangle's edges: \(m)")
        // A custom size scales up too: 200x100 into 800x800 → 800x400, bars of 200 px.
        let custom = d.directory.appendingPathComponent("custom.png")
        #expect(try d.ctl("preview", "--width", "800", "--height", "800", "-o", custom.path).exitCode == 0)
        let c = try ImageCheck.regions(custom, [[0, 0, 800, 198], [0, 602, 800, 198], [0, 202, 800, 396]])
        #expect(c[0] < 1 && c[1] < 1 && c[2] > 250, "\(c)")
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to read pixels"))
    func onlyTheCurrentPhotosCellIsOutlinedInTheAccentColour() throws {
        _ = try daemon.ctl("session", "new", "ol", "--width", "600")
        _ = try daemon.ctl("select-album", "Trip", session: "ol")
        for current in [3, 4] {
            if current == 3 { _ = try daemon.ctl("select-photo", "--index", "3", session: "ol") } else { _ = try daemon.ctl("next", session: "ol") }
            let out = daemon.directory.appendingPathComponent("outline\(current).png")
            #expect(try daemon.ctl("thumbnails", "-o", out.path, session: "ol").exitCode == 0)
            let cells = try json(try daemon.ctl("thumbnails", "--json", session: "ol"))["cells"] as? [[String: Any]] ?? []
            #expect(cells.count == 4)
            for (i, cell) in cells.enumerated() {
                let x = cell["x"] as? Int ?? 0, y = cell["y"] as? Int ?? 0, size = 100
                // The ring is 3 px wide, 2 px outside the cell: x - 4 and x + size + 3 are inside it, mid-side.
                let ring = [[x - 4, y + size / 2], [x + size + 3, y + size / 2], [x + size / 2, y - 4], [x + size / 2, y + size + 3]]
                let colours = try ClaimImages.pixels(out, ring)
                let accent = [10, 132, 255], background = [28, 28, 30]
                let expected = i + 1 == current ? accent : background
                for c in colours {
                    #expect(zip(c, expected).allSatisfy { abs($0 - $1) <= 2 },
                            "cell \(i + 1) (current \(current)): \(colours) should be \(expected)")
                }
            }
        }
    }

    @Test func sharedThumbnailsAreWrittenInTheStandardFormAndReused() throws {
        _ = try daemon.ctl("session", "new", "s", "--width", "600")
        _ = try daemon.ctl("select-album", "Trip", session: "s")
        #expect(try daemon.ctl("thumbnails", "-o", daemon.directory.appendingPathComponent("grid.png").path, session: "s").exitCode == 0)
        let dir = daemon.cacheHome.appendingPathComponent("thumbnails/large")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        #expect(files.count == 4, "\(files)")
        var seen: [String: (Int, Date)] = [:]
        for f in files {
            let url = dir.appendingPathComponent(f)
            let text = try ImageCheck.text(url)
            let uri = text["Thumb::URI"] ?? ""
            #expect(uri.hasPrefix("file:///"))
            #expect(Int(text["Thumb::MTime"] ?? "") != nil)
            let attrs = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attrs[.posixPermissions] as? Int) == 0o600)
            let info = try ImageCheck.info(url)
            #expect(max(info.width, info.height) == 256)
            seen[f] = ((attrs[.systemFileNumber] as? Int) ?? 0, (attrs[.modificationDate] as? Date) ?? Date())
        }
        // A fresh daemon (empty memory) reuses them: not rewritten.
        daemon.stop()
        try daemon.start()
        #expect(try daemon.ctl("thumbnails", "-o", daemon.directory.appendingPathComponent("grid.png").path, session: "s").exitCode == 0)
        for (f, before) in seen {
            let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(f).path)
            #expect((attrs[.systemFileNumber] as? Int) == before.0, "\(f) was rewritten")
        }
        // A photo that changes gets its thumbnail regenerated with the new MTime.
        let photo = library.url.appendingPathComponent("Trip/Landscape_1.jpg")
        let newTime = Date(timeIntervalSince1970: 1_500_000_000)
        try FileManager.default.setAttributes([.modificationDate: newTime], ofItemAtPath: photo.path)
        daemon.stop()
        try daemon.start()
        #expect(try daemon.ctl("thumbnails", "-o", daemon.directory.appendingPathComponent("grid.png").path, session: "s").exitCode == 0)
        let texts = try FileManager.default.contentsOfDirectory(atPath: dir.path).map { try ImageCheck.text(dir.appendingPathComponent($0)) }
        let entry = texts.first { ($0["Thumb::URI"] ?? "").hasSuffix("/Trip/Landscape_1.jpg") }
        #expect(entry?["Thumb::MTime"] == "1500000000", "\(String(describing: entry))")
    }

    @Test func sharedThumbnailsCanBeTurnedOff() throws {
        let off = try LiveDaemon(library: library.url, extraArguments: ["--no-shared-thumbnails"])
        _ = try off.ctl("session", "new", "--width", "600")
        _ = try off.ctl("select-album", "Trip")
        #expect(try off.ctl("thumbnails", "-o", off.directory.appendingPathComponent("grid.png").path).exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: off.cacheHome.appendingPathComponent("thumbnails").path))
    }
}
