import Foundation
import Testing

/// Small JPEGs with a chosen EXIF DateTimeOriginal, made by Pillow (Tests/tools/make_dated_jpegs.py).
enum DatedJPEGs {
    static let canMake = (try? runProcessBlocking(TestEnvironment.python, ["-c", "import PIL"]))?.exitCode == 0

    /// Writes `PATH=DATE` specs under `root` (an empty DATE: no EXIF).
    static func make(in root: URL, _ specs: [String]) async throws {
        let tool = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_dated_jpegs.py").path
        let made = try await runProcess(TestEnvironment.python, [tool, root.path] + specs)
        guard made.exitCode == 0 else { throw Failure.toolFailed(made.description) }
    }

    enum Failure: Error { case toolFailed(String) }
}

/// The photo order is session state and listings page: a real daemon and pickerctl, on a library of
/// JPEGs made by Pillow with EXIF dates that run against their name order.
@Suite(.enabled(if: DatedJPEGs.canMake, "needs /usr/bin/python3 with Pillow to make dated JPEGs"))
struct SortAndPagingTests {
    /// "trip": name order IMG_1, IMG_2, IMG_3, IMG_10; date order (newest first, undated last)
    /// IMG_2, IMG_10, IMG_1, then the undated IMG_3. "home" repeats the name IMG_1.jpg.
    static let tripByDate = ["IMG_2.jpg", "IMG_10.jpg", "IMG_1.jpg", "IMG_3.jpg"]
    static let tripByName = ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "IMG_10.jpg"]

    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        try await DatedJPEGs.make(in: library.url, [
            "trip/IMG_1.jpg=2020:01:01 10:00:00", "trip/IMG_2.jpg=2023:06:01 10:00:00",
            "trip/IMG_10.jpg=2021:03:01 10:00:00", "trip/IMG_3.jpg=", "home/IMG_1.jpg=2022:01:01 00:00:00",
        ])
        daemon = try await LiveDaemon(library: library.url)
    }

    // MARK: helpers

    private func json(_ args: String...) async throws -> [String: Any] {
        let r = try await daemon.ctl(args: args + ["--json"])
        try #require(r.exitCode == 0, "\(args): \(r)")
        return try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(args): \(r)")
    }

    private func rows(_ args: String...) async throws -> [[String: Any]] {
        let r = try await daemon.ctl(args: ["photos", "--json"] + args)
        try #require(r.exitCode == 0, "\(r)")
        let doc = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        return doc["photos"] as? [[String: Any]] ?? []
    }

    private func names(_ rows: [[String: Any]]) -> [String] { rows.map { $0["name"] as? String ?? "?" } }

    private func currentPhoto() async throws -> (name: String?, index: Int?) {
        let s = try await json("status")
        return (s["photo"] as? String, s["photo_index"] as? Int)
    }

    private func openTrip(sort: String? = nil) async throws {
        var args = ["session", "new", "--width", "400"]
        if let sort { args += ["--sort", sort] }
        let made = try await daemon.ctl(args: args)
        try #require(made.exitCode == 0, "\(made)")
        try await #require(try daemon.ctl("select-album", "trip").exitCode == 0)
    }

    // MARK: the order is the session's

    @Test func sortDateThenIndexOneSelectsTheRowPhotosShowedFirst() async throws {
        try await openTrip()
        await #expect(names(try rows()) == Self.tripByName)
        let sorted = try await daemon.ctl("sort", "date")
        #expect(sorted.exitCode == 0, "\(sorted)")
        let listed = try await rows()
        #expect(names(listed) == Self.tripByDate)
        #expect(listed.map { $0["index"] as? Int } == [1, 2, 3, 4])
        for (i, name) in Self.tripByDate.enumerated() {
            await #expect(try daemon.ctl("select-photo", "--index", "\(i + 1)").exitCode == 0)
            let now = try await currentPhoto()
            #expect(now.name == name && now.index == i + 1, "--index \(i + 1) picked \(String(describing: now.name))")
        }
        // toggle --index counts the same rows.
        await #expect(try daemon.ctl("toggle", "--index", "2").exitCode == 0)
        let picked = try await json("selection")["photos"] as? [[String: Any]] ?? []
        #expect(picked.map { $0["path"] as? String } == ["trip/IMG_10.jpg"])
    }

    @Test func photosSortOptionSetsTheSessionsOrderForLaterIndexes() async throws {
        try await openTrip()
        await #expect(names(try rows("--sort", "date")) == Self.tripByDate)
        await #expect(try daemon.ctl("select-photo", "--index", "1").exitCode == 0)
        await #expect(try currentPhoto().name == "IMG_2.jpg")
        // Without --sort, photos keeps the session's order.
        await #expect(names(try rows()) == Self.tripByDate)
        await #expect(names(try rows("--sort", "name")) == Self.tripByName)
        await #expect(try daemon.ctl("select-photo", "--index", "1").exitCode == 0)
        await #expect(try currentPhoto().name == "IMG_1.jpg")
    }

    @Test func nextAndPrevWalkTheSessionsOrder() async throws {
        try await openTrip(sort: "date")
        var walked: [String] = []
        for _ in Self.tripByDate {
            let r = try await daemon.ctl("next")
            #expect(r.exitCode == 0, "\(r)")
            await walked.append(try currentPhoto().name ?? "?")
        }
        #expect(walked == Self.tripByDate)
        let past = try await daemon.ctl("next")
        #expect(past.exitCode == 4, "\(past)")
        await #expect(try daemon.ctl("prev").exitCode == 0)
        await #expect(try currentPhoto() == (Self.tripByDate[2], 3))
    }

    @Test func gridCellsFollowTheSessionsOrder() async throws {
        try await openTrip(sort: "date")
        let grid = try await json("thumbnails")
        let cells = grid["cells"] as? [[String: Any]] ?? []
        #expect(cells.map { $0["name"] as? String } == Self.tripByDate)
        #expect(cells.map { $0["index"] as? Int } == [1, 2, 3, 4])
        await #expect(try daemon.ctl("sort", "name").exitCode == 0)
        let byName = try await json("thumbnails")["cells"] as? [[String: Any]] ?? []
        #expect(byName.map { $0["name"] as? String } == Self.tripByName)
    }

    @Test func theOrderSurvivesADaemonRestart() async throws {
        try await openTrip(sort: "date")
        await #expect(try daemon.ctl("select-photo", "--index", "2").exitCode == 0)
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        await #expect(names(try rows()) == Self.tripByDate)
        await #expect(try currentPhoto() == ("IMG_10.jpg", 2))
        await #expect(try daemon.ctl("select-photo", "--index", "1").exitCode == 0)
        await #expect(try currentPhoto().name == "IMG_2.jpg")
    }

    @Test func allPhotosFollowsTheOrderAndItsTextRowsShowRelativePaths() async throws {
        try await openTrip(sort: "date")
        await #expect(try daemon.ctl("select-album", "All Photos").exitCode == 0)
        let listed = try await rows()
        #expect(listed.map { $0["path"] as? String } ==
                ["trip/IMG_2.jpg", "home/IMG_1.jpg", "trip/IMG_10.jpg", "trip/IMG_1.jpg", "trip/IMG_3.jpg"])
        let text = try await daemon.ctl("photos")
        #expect(text.exitCode == 0)
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        // Each row shows its relative path, so the two IMG_1.jpg rows differ; the index picks that row.
        let homeRow = try #require(lines.first { $0.contains("home/IMG_1.jpg") })
        let tripRow = try #require(lines.first { $0.contains("trip/IMG_1.jpg") })
        #expect(homeRow.hasPrefix("2 ") && tripRow.hasPrefix("4 "), "\(lines)")
        await #expect(try daemon.ctl("toggle", "--index", "4").exitCode == 0)
        let picked = try await json("selection")["photos"] as? [[String: Any]] ?? []
        #expect(picked.map { $0["path"] as? String } == ["trip/IMG_1.jpg"])
        // Under name order All Photos keeps its own order, newest first (SPEC): EXIF date, else the
        // mtime — the undated IMG_3 was written just now, so it is the newest.
        await #expect(try daemon.ctl("sort", "name").exitCode == 0)
        await #expect(try rows().map { $0["path"] as? String } ==
                ["trip/IMG_3.jpg", "trip/IMG_2.jpg", "home/IMG_1.jpg", "trip/IMG_10.jpg", "trip/IMG_1.jpg"])
    }

    @Test func badSortWordsAreUsageErrorsBeforeTheDaemonIsAsked() async throws {
        try await openTrip()
        for args in [["sort", "size"], ["photos", "--sort", "newest"], ["session", "new", "x", "--width", "100", "--sort", "up"]] {
            let r = try await daemon.ctl(args: args)
            #expect(r.exitCode == 2 && r.stdout.isEmpty, "\(args): \(r)")
        }
        await #expect(names(try rows()) == Self.tripByName)
    }
}

/// Paging over a library bigger than one of pickerctl's pages (1000 rows).
@Suite(.enabled(if: DatedJPEGs.canMake, "needs /usr/bin/python3 with Pillow to make JPEGs"))
struct PhotoPagingTests {
    static let photoCount = 1_203

    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        // Three folders; every tenth photo has no EXIF date, the others a distinct one.
        let specs = (0..<Self.photoCount).map { i -> String in
            let date = i % 10 == 0 ? "" : "2020:01:01 \(Self.clock(i))"
            return "f\(i % 3)/P_\(i).jpg=\(date)"
        }
        try await DatedJPEGs.make(in: library.url, specs)
        daemon = try await LiveDaemon(library: library.url)
        try await #require(try daemon.ctl("session", "new", "--width", "400").exitCode == 0)
        try await #require(try daemon.ctl("select-album", "All Photos").exitCode == 0)
    }

    /// A distinct time of day for photo i ("HH:MM:SS").
    static func clock(_ i: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(i / 3600 % 24)):\(two(i / 60 % 60)):\(two(i % 60))"
    }

    private func page(_ args: String...) async throws -> (total: Int?, paths: [String]) {
        let r = try await daemon.ctl(args: ["photos", "--json"] + args)
        try #require(r.exitCode == 0, "\(r)")
        let doc = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let rows = doc["photos"] as? [[String: Any]] ?? []
        return (doc["total"] as? Int, rows.compactMap { $0["path"] as? String })
    }

    @Test(arguments: ["name", "date"])
    func pagesReturnEveryPhotoExactlyOnce(_ sort: String) async throws {
        await #expect(try daemon.ctl("sort", sort).exitCode == 0)
        let everything = try await page()
        #expect(everything.total == Self.photoCount)
        #expect(everything.paths.count == Self.photoCount)
        #expect(Set(everything.paths).count == Self.photoCount)
        var paged: [String] = []
        var offset = 0
        while offset < Self.photoCount {
            let p = try await page("--offset", "\(offset)", "--limit", "400")
            #expect(p.total == Self.photoCount)
            #expect(p.paths.count == min(400, Self.photoCount - offset))
            paged += p.paths
            offset += 400
        }
        #expect(paged == everything.paths)
    }

    @Test func textListingIsStreamedInPagesWithOneRowPerPhoto() async throws {
        let r = try await daemon.ctl("photos")
        #expect(r.exitCode == 0)
        let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == Self.photoCount)
        #expect(lines.last?.hasPrefix("\(Self.photoCount) ") == true)
        #expect(lines.allSatisfy { $0.contains("/P_") })
    }

    @Test func anOffsetPastTheEndIsNoSuchPage() async throws {
        let r = try await daemon.ctl("photos", "--offset", "\(Self.photoCount)")
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("no page at offset \(Self.photoCount)"), "\(r.stderr)")
        let last = try await page("--offset", "\(Self.photoCount - 1)", "--limit", "5")
        #expect(last.paths.count == 1)
    }
}
