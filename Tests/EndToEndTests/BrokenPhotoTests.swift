import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Broken photos are marked, not hidden and not disguised (issue 14 item 4), and grid cells come
/// from the photo's own EXIF thumbnail before a shared one (item 5): a live daemon driven by pickerctl.
@Suite(.timeLimit(.minutes(15))) struct BrokenPhotoTests {
    static let truncated = "sharp_truncated.jpg"
    static let camera = "Canon_EOS_5D_Mark_III_22mp.jpg"
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        let fixtures = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures")
        // The fixtures, not the corpus: these two files are what the assertions are about.
        try library.add(fixtures.appendingPathComponent("camera-photos/\(Self.camera)"), album: "A")
        try library.add(fixtures.appendingPathComponent("jpeg-broken/\(Self.truncated)"), album: "A")
        // No prefetch: selecting album A would decode the truncated photo in the background and mark
        // it before a test's own request (or before its listener subscribed).
        daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch"])
    }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    private func rows() async throws -> [[String: Any]] {
        try await json(try daemon.ctl("photos", "--json", session: "b"))["photos"] as? [[String: Any]] ?? []
    }

    private func truncatedRow() async throws -> [String: Any] {
        try await rows().first { $0["name"] as? String == Self.truncated } ?? [:]
    }

    private func openSession() async throws {
        await #expect(try daemon.ctl("session", "new", "b", "--width", "600").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "b").exitCode == 0)
    }

    @Test func truncatedJPEGIsListedBrokenWithTheReasonAfterOneFailedDecode() async throws {
        try await openSession()
        // Listed, and not marked before anything tried to decode it.
        await #expect(try truncatedRow()["broken"] == nil)
        await #expect(try daemon.ctl("select-photo", Self.truncated, session: "b").exitCode == 0)
        let failed = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "b")
        #expect(failed.exitCode == 1 && failed.stderr.contains("Premature end of JPEG"), "\(failed)")

        let reason = try await truncatedRow()["broken"] as? String ?? ""
        #expect(reason.contains("Premature end of JPEG"), "\(reason)")
        await #expect(try rows().first { $0["name"] as? String == Self.camera }?["broken"] == nil)
        let text = try await daemon.ctl("photos", session: "b").stdoutText
        let line = text.split(separator: "\n").first { $0.contains(Self.truncated) } ?? ""
        #expect(line.contains("broken: corrupt JPEG data: Premature end of JPEG"), "\(text)")

        let status = try await json(try daemon.ctl("status", "--json", session: "b"))
        #expect(status["message"] as? String == "cannot be shown: \(reason)", "\(status)")

        let cells = try await json(try daemon.ctl("thumbnails", "--json", session: "b"))["cells"] as? [[String: Any]] ?? []
        #expect(cells.map { $0["broken"] as? Bool } == [false, true], "\(cells)")
    }

    @Test func pickingAKnownBrokenPhotoIsRefusedWithTheReason() async throws {
        try await openSession()
        // Before its first failed decode it can be picked (nothing is known yet) and unpicked.
        await #expect(try daemon.ctl("toggle", Self.truncated, session: "b").exitCode == 0)
        await #expect(try daemon.ctl("toggle", Self.truncated, session: "b").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", Self.truncated, session: "b").exitCode == 0)
        _ = try await daemon.ctl("preview", "--width", "320", "--height", "200", "-o",
                           daemon.directory.appendingPathComponent("p.png").path, session: "b")
        let refused = try await daemon.ctl("toggle", Self.truncated, session: "b")
        #expect(refused.exitCode == 1, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("cannot pick '\(Self.truncated)'") && refused.stderr.contains("Premature end of JPEG"),
                "\(refused.stderr)")
        let jsonRefusal = try await daemon.ctl("toggle", Self.truncated, "--json", session: "b")
        #expect(jsonRefusal.exitCode == 1)
        await #expect(try json(try daemon.ctl("status", "--json", session: "b"))["selection_count"] as? Int == 0)
        // A good photo is still picked.
        await #expect(try daemon.ctl("toggle", Self.camera, session: "b").exitCode == 0)
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to read pixels"))
    func brokenPhotosGridTileIsDarkWithACrackedFrameMarkNotGrey() async throws {
        try await openSession()
        // The grid is the first render path to meet the file: its own failed decode marks it.
        let out = daemon.directory.appendingPathComponent("grid.png")
        await #expect(try daemon.ctl("thumbnails", "-o", out.path, session: "b").exitCode == 0)
        let cells = try await json(try daemon.ctl("thumbnails", "--json", session: "b"))["cells"] as? [[String: Any]] ?? []
        #expect(cells.count == 2)
        guard cells.count == 2, let x = cells[1]["x"] as? Int, let y = cells[1]["y"] as? Int else { return }
        #expect(cells[1]["broken"] as? Bool == true)
        let corners = try await ClaimImages.pixels(out, [[x + 3, y + 3], [x + 96, y + 3], [x + 3, y + 96], [x + 96, y + 96]])
        for c in corners {
            #expect(c.allSatisfy { $0 <= 20 }, "the broken tile is dark, not the placeholder grey: \(corners)")
        }
        // Across the middle row: the frame's light grey sides and the crack's red.
        let row = try await ClaimImages.pixels(out, (0..<100).map { [x + $0, y + 50] })
        #expect(row.contains { $0[0] > 200 && $0[1] < 120 && $0[2] < 120 }, "a red crack: \(row)")
        #expect(row.contains { $0.allSatisfy { (150...200).contains($0) } }, "a grey frame: \(row)")
        // The good photo's cell is a picture, not the tile.
        let good = try await ClaimImages.pixels(out, [[(cells[0]["x"] as? Int ?? 0) + 50, (cells[0]["y"] as? Int ?? 0) + 50]])
        #expect(good.first?.allSatisfy { $0 <= 20 } == false, "\(good)")
    }

    @Test func photoFoundBrokenIsAnnouncedToLibraryAndSessionSubscribers() async throws {
        try await openSession()
        await #expect(try daemon.ctl("select-photo", Self.truncated, session: "b").exitCode == 0)
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "listener")
        let sub = try listener.send(.subscribe(Subscription(session: "b", library: true)))
        _ = try listener.receive(id: sub)
        _ = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "b")
        // A second failure is not news.
        _ = try await daemon.ctl("get-image", "--no-cache", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "b")
        let ping = try listener.send(.ping)
        var events: [Event] = []
        while true {
            let f = try listener.nextFrame()
            if f.isEvent { events.append(try Event(frame: f)); continue }
            if f.requestID == ping { break }
        }
        let changed = events.compactMap { e -> [String]? in
            if case .libraryChanges(let c) = e { return c.changed } else { return nil }
        }
        #expect(changed == [["A/\(Self.truncated)"]], "\(events)")
        let messages = events.compactMap { e -> String? in
            if case .session(.photo, let s) = e { return s.message } else { return nil }
        }
        #expect(messages.count == 1 && messages.first?.hasPrefix("cannot be shown: ") == true, "\(events)")
    }

    @Test func replacingTheBrokenFileWithAGoodOneClearsTheMark() async throws {
        try await openSession()
        await #expect(try daemon.ctl("select-photo", Self.truncated, session: "b").exitCode == 0)
        _ = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "b")
        await #expect(try truncatedRow()["broken"] != nil)
        // Written again (new size and mtime): a new version of the file, tried afresh.
        let good = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/exif-orientation/Landscape_1.jpg")
        let path = library.url.appendingPathComponent("A/\(Self.truncated)")
        let replacement = library.url.appendingPathComponent("A/.incoming")
        try FileManager.default.copyItem(at: good, to: replacement)
        #expect(rename(replacement.path, path.path) == 0)
        await #expect(try eventually { try await truncatedRow()["width"] as? Int == 1800 })
        let row = try await truncatedRow()
        #expect(row["broken"] == nil, "\(row)")
        let message = try await json(try daemon.ctl("status", "--json", session: "b"))["message"] as? String ?? ""
        #expect(message.hasPrefix("1800x1200 px"), "\(message)")
        await #expect(try daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("y.png").path, session: "b").exitCode == 0)
        await #expect(try daemon.ctl("toggle", Self.truncated, session: "b").exitCode == 0)
    }

    @Test func cutShortCameraJPEGIsNotDisguisedByItsIntactExifThumbnail() async throws {
        // The first megabyte of the Canon photo: its EXIF thumbnail (in the first 64 KiB) is whole.
        let camera = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/camera-photos/\(Self.camera)")
        let cut = try Data(contentsOf: camera).prefix(1_000_000)
        try cut.write(to: library.url.appendingPathComponent("A/cut.jpg"))
        await daemon.stop()
        try await daemon.start()
        try await openSession()
        await #expect(try daemon.ctl("thumbnails", "-o", daemon.directory.appendingPathComponent("g.png").path, session: "b").exitCode == 0)
        let cells = try await json(try daemon.ctl("thumbnails", "--json", session: "b"))["cells"] as? [[String: Any]] ?? []
        let flags = Dictionary(uniqueKeysWithValues: cells.map { ($0["name"] as? String ?? "", $0["broken"] as? Bool) })
        #expect(flags == [Self.camera: false, "cut.jpg": true, Self.truncated: true], "\(cells)")
        let row = try await rows().first { $0["name"] as? String == "cut.jpg" } ?? [:]
        #expect((row["broken"] as? String)?.contains("Premature end of JPEG") == true, "\(row)")
    }

    @Test func brokenMarkIsKeptAcrossARestartInTheLibraryIndex() async throws {
        try await openSession()
        await #expect(try daemon.ctl("select-photo", Self.truncated, session: "b").exitCode == 0)
        _ = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "b")
        let reason = try await truncatedRow()["broken"] as? String
        #expect(reason != nil)
        // The watcher writes new marks into the index within a turn of its loop (about a second);
        // a daemon stopped before that would only forget them (marks are a cache too).
        let index = daemon.cacheHome.appendingPathComponent("pickerd")
        let query = "import sqlite3,glob,sys; print(sum(sqlite3.connect(f).execute('SELECT count(*) FROM photos WHERE broken IS NOT NULL').fetchone()[0] for f in glob.glob(sys.argv[1] + '/index-*.sqlite')))"
        await #expect(try eventually { try await runProcess(TestEnvironment.python, ["-c", query, index.path]).stdoutText.hasPrefix("1") })
        await daemon.stop()
        try await daemon.start()
        // Marked at once, before anything decoded it in this run.
        await #expect(try truncatedRow()["broken"] as? String == reason)
        let refused = try await daemon.ctl("toggle", Self.truncated, session: "b")
        #expect(refused.exitCode == 1 && refused.stderr.contains("Premature end of JPEG"), "\(refused)")
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to plant and read pictures"))
    func gridCellComesFromTheExifThumbnailEvenWhenASharedThumbnailExists() async throws {
        // A second photo without an EXIF thumbnail shows that the planted shared thumbnails are used.
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/exif-orientation/Landscape_1.jpg"),
                        album: "A")
        await daemon.stop()
        try await daemon.start()
        let plant = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/plant_thumbnail.py").path
        // Magenta, at the flavor that covers a 100 px cell (large: 256 px on the long side).
        for (name, w, h) in [(Self.camera, 256, 170), ("Landscape_1.jpg", 256, 170)] {
            let r = try await runProcess(TestEnvironment.python, [plant, daemon.cacheHome.path, "large",
                                                            library.url.appendingPathComponent("A/\(name)").path,
                                                            "\(w)", "\(h)", "255", "0", "255"])
            #expect(r.exitCode == 0, "\(r.stderr)")
        }
        try await openSession()
        let out = daemon.directory.appendingPathComponent("grid.png")
        await #expect(try daemon.ctl("thumbnails", "-o", out.path, session: "b").exitCode == 0)
        let cells = try await json(try daemon.ctl("thumbnails", "--json", session: "b"))["cells"] as? [[String: Any]] ?? []
        func centre(_ name: String) async throws -> [Int] {
            let cell = cells.first { $0["name"] as? String == name } ?? [:]
            return try await ClaimImages.pixels(out, [[(cell["x"] as? Int ?? 0) + 50, (cell["y"] as? Int ?? 0) + 50]]).first ?? []
        }
        let isMagenta = { (c: [Int]) in c.count == 3 && c[0] > 240 && c[1] < 15 && c[2] > 240 }
        let plain = try await centre("Landscape_1.jpg"), camera = try await centre(Self.camera)
        #expect(isMagenta(plain), "the shared thumbnail serves a photo without its own: \(plain)")
        #expect(!isMagenta(camera), "the EXIF thumbnail serves first: \(camera)")
    }
}
