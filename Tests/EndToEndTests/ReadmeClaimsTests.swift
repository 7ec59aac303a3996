import Foundation
import Testing

/// README claims about the library as it changes and is listed: a photo replaced on disk,
/// `photos --sort date`, `watch --library`.
@Suite(.timeLimit(.minutes(15))) struct ReadmeClaimsTests {
    private func json(_ r: CommandResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any] ?? [:]
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to make and read the pictures"))
    func photoReplacedOnDiskByRenameIsServedNewEvenWithTheCacheWarm() async throws {
        let library = try await TemporaryLibrary()
        let album = library.url.appendingPathComponent("A")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let photo = album.appendingPathComponent("p.jpg")
        try await ClaimImages.solid(photo, width: 160, height: 120, rgb: (230, 20, 20))
        let daemon = try await LiveDaemon(library: library.url)
        _ = try await daemon.ctl("session", "new", "--width", "160")
        _ = try await daemon.ctl("select-album", "A")
        _ = try await daemon.ctl("select-photo", "p.jpg")
        func served(_ tag: String) async throws -> [Int] {
            let out = daemon.directory.appendingPathComponent("\(tag).png")
            let r = try await daemon.ctl("get-image", "-o", out.path)
            #expect(r.exitCode == 0, "\(r)")
            return try await ClaimImages.pixels(out, [[80, 60]]).first ?? []
        }
        // Twice: the second is a cache hit, so the cache is warm for this photo.
        for tag in ["old1", "old2"] {
            let c = try await served(tag)
            #expect(c[0] > 200 && c[2] < 60, "red first: \(c)")
        }
        // A new picture of the same name, written beside it (hidden, so never listed) and renamed over it.
        let staged = album.appendingPathComponent(".p.new.jpg")
        try await ClaimImages.solid(staged, width: 160, height: 120, rgb: (20, 20, 230))
        #expect(rename(staged.path, photo.path) == 0)
        let c = try await served("new")
        #expect(c[2] > 200 && c[0] < 60, "the new (blue) picture must be served: \(c)")
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to write EXIF dates"))
    func photosSortDateListsByExifCaptureDateNewestFirstThenUndatedByName() async throws {
        let library = try await TemporaryLibrary()
        let album = library.url.appendingPathComponent("D")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        // Names, mtimes and dates disagree on purpose.
        let dated = [("IMG_1.jpg", "2021:06:01 12:00:00"), ("IMG_2.jpg", "2023:01:15 08:30:00"),
                     ("IMG_10.jpg", "2019:12:31 23:59:59"), ("IMG_3.jpg", "2021:06:01 11:59:58")]
        for (name, date) in dated {
            try await ClaimImages.dated(album.appendingPathComponent(name), width: 64, height: 48, date: date)
        }
        try await ClaimImages.solid(album.appendingPathComponent("b-undated.png"), width: 64, height: 48, rgb: (1, 2, 3))
        try await ClaimImages.solid(album.appendingPathComponent("a-undated.jpg"), width: 64, height: 48, rgb: (1, 2, 3))
        let times: [(String, Double)] = [("IMG_10.jpg", 1_700_000_000), ("IMG_2.jpg", 1_500_000_000), ("b-undated.png", 1_400_000_000)]
        for (name, t) in times {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: t)],
                                                  ofItemAtPath: album.appendingPathComponent(name).path)
        }
        let daemon = try await LiveDaemon(library: library.url)
        _ = try await daemon.ctl("session", "new", "--width", "300")
        _ = try await daemon.ctl("select-album", "D")
        let byDate = await json(try daemon.ctl("photos", "--sort", "date", "--json"))["photos"] as? [[String: Any]] ?? []
        #expect(byDate.map { $0["name"] as? String ?? "?" }
                == ["IMG_2.jpg", "IMG_1.jpg", "IMG_3.jpg", "IMG_10.jpg", "a-undated.jpg", "b-undated.png"], "\(byDate)")
        // The text form lists the same order (the order is the session's now: no --sort needed).
        let text = try await daemon.ctl("photos").stdoutText
        let positions = ["IMG_2.jpg", "IMG_1.jpg", "IMG_3.jpg", "IMG_10.jpg"].compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == 4 && positions == positions.sorted(), "\(text)")
        // Back to name order: natural file-name order.
        let byName = await json(try daemon.ctl("photos", "--sort", "name", "--json"))["photos"] as? [[String: Any]] ?? []
        #expect(byName.map { $0["name"] as? String ?? "?" }.filter { $0.hasPrefix("IMG") } == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "IMG_10.jpg"])
    }

    @Test func watchLibraryPrintsALibraryEventWhenPhotosAreAdded() async throws {
        let library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation")
        try library.add(corpus.appendingPathComponent("Landscape_1.jpg"), album: "A")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "w", "--width", "300").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("watch.out").path
        let watch = try spawnProcess(TestEnvironment.pickerctl.path,
                                     ["--socket", daemon.socketPath, "--session", "w", "watch", "--library", "--json"],
                                     environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: out,
                                     stderr: daemon.directory.appendingPathComponent("watch.err").path)
        defer {
            kill(watch, SIGTERM)
            _ = waitForExit(watch)
        }
        func lines() -> [String] {
            ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        // Subscribed once a session event shows up (resizes alternate, so each is a change).
        var width = 300
        let heard = try await eventually {
            width = width == 300 ? 301 : 300
            _ = try await daemon.ctl("session", "resize", "--width", "\(width)", session: "w")
            return lines().contains { $0.contains("\"event\":\"pane_size\"") }
        }
        #expect(heard, "watch never printed a session event: \(lines())")
        #expect(!lines().contains { $0.contains("\"event\":\"library\"") }, "no library event before a change")

        try library.add(corpus.appendingPathComponent("Landscape_3.jpg"), album: "B")
        try library.add(corpus.appendingPathComponent("Landscape_6.jpg"), album: "B")
        // The daemon watches the library: the event comes without anyone asking (bounded wait).
        await #expect(eventually(within: 60) {
            lines().contains { $0.contains("\"event\":\"library\"") }
        }, "watch --library printed no library event: \(lines())")
        let event = lines().first { $0.contains("\"event\":\"library\"") } ?? ""
        let object = (try? JSONSerialization.jsonObject(with: Data(event.utf8))) as? [String: Any] ?? [:]
        #expect(object["photos"] as? Int == 3, "\(event)")
    }
}
