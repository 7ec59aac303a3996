import Foundation
import Testing

/// Small JPEGs with a chosen EXIF DateTimeOriginal, made by Pillow (Tests/tools/make_dated_jpegs.py).
enum DatedJPEGs {
    static let canMake = (try? runProcess(TestEnvironment.python, ["-c", "import PIL"]))?.exitCode == 0

    /// Writes `PATH=DATE` specs under `root` (an empty DATE: no EXIF).
    static func make(in root: URL, _ specs: [String]) throws {
        let tool = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_dated_jpegs.py").path
        let made = try runProcess(TestEnvironment.python, [tool, root.path] + specs)
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

    init() throws {
        library = try TemporaryLibrary()
        try DatedJPEGs.make(in: library.url, [
            "trip/IMG_1.jpg=2020:01:01 10:00:00", "trip/IMG_2.jpg=2023:06:01 10:00:00",
            "trip/IMG_10.jpg=2021:03:01 10:00:00", "trip/IMG_3.jpg=", "home/IMG_1.jpg=2022:01:01 00:00:00",
        ])
        daemon = try LiveDaemon(library: library.url)
    }

    // MARK: helpers

    private func json(_ args: String...) throws -> [String: Any] {
        let r = try daemon.ctl(args: args + ["--json"])
        try #require(r.exitCode == 0, "\(args): \(r)")
        return try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(args): \(r)")
    }

    private func rows(_ args: String...) throws -> [[String: Any]] {
        let r = try daemon.ctl(args: ["photos", "--json"] + args)
        try #require(r.exitCode == 0, "\(r)")
        let doc = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        return doc["photos"] as? [[String: Any]] ?? []
    }

    private func names(_ rows: [[String: Any]]) -> [String] { rows.map { $0["name"] as? String ?? "?" } }

    private func currentPhoto() throws -> (name: String?, index: Int?) {
        let s = try json("status")
        return (s["photo"] as? String, s["photo_index"] as? Int)
    }

    private func openTrip(sort: String? = nil) throws {
        var args = ["session", "new", "--width", "400"]
        if let sort { args += ["--sort", sort] }
        let made = try daemon.ctl(args: args)
        try #require(made.exitCode == 0, "\(made)")
        try #require(try daemon.ctl("select-album", "trip").exitCode == 0)
    }

    // MARK: the order is the session's

    @Test func sortDateThenIndexOneSelectsTheRowPhotosShowedFirst() throws {
        try openTrip()
        #expect(names(try rows()) == Self.tripByName)
        let sorted = try daemon.ctl("sort", "date")
        #expect(sorted.exitCode == 0, "\(sorted)")
        let listed = try rows()
        #expect(names(listed) == Self.tripByDate)
        #expect(listed.map { $0["index"] as? Int } == [1, 2, 3, 4])
        for (i, name) in Self.tripByDate.enumerated() {
            #expect(try daemon.ctl("select-photo", "--index", "\(i + 1)").exitCode == 0)
            let now = try currentPhoto()
            #expect(now.name == name && now.index == i + 1, "--index \(i + 1) picked \(String(describing: now.name))")
        }
        // toggle --index counts the same rows.
        #expect(try daemon.ctl("toggle", "--index", "2").exitCode == 0)
        let picked = try json("selection")["photos"] as? [[String: Any]] ?? []
        #expect(picked.map { $0["path"] as? String } == ["trip/IMG_10.jpg"])
    }

    @Test func photosSortOptionSetsTheSessionsOrderForLaterIndexes() throws {
        try openTrip()
        #expect(names(try rows("--sort", "date")) == Self.tripByDate)
        #expect(try daemon.ctl("select-photo", "--index", "1").exitCode == 0)
        #expect(try currentPhoto().name == "IMG_2.jpg")
        // Without --sort, photos keeps the session's order.
        #expect(names(try rows()) == Self.tripByDate)
        #expect(names(try rows("--sort", "name")) == Self.tripByName)
        #expect(try daemon.ctl("select-photo", "--index", "1").exitCode == 0)
        #expect(try currentPhoto().name == "IMG_1.jpg")
    }

    @Test func nextAndPrevWalkTheSessionsOrder() throws {
        try openTrip(sort: "date")
        var walked: [String] = []
        for _ in Self.tripByDate {
            let r = try daemon.ctl("next")
            #expect(r.exitCode == 0, "\(r)")
            walked.append(try currentPhoto().name ?? "?")
        }
        #expect(walked == Self.tripByDate)
        let past = try daemon.ctl("next")
        #expect(past.exitCode == 4, "\(past)")
        #expect(try daemon.ctl("prev").exitCode == 0)
        #expect(try currentPhoto() == (Self.tripByDate[2], 3))
    }

    @Test func gridCellsFollowTheSessionsOrder() throws {
        try openTrip(sort: "date")
        let grid = try json("thumbnails")
        let cells = grid["cells"] as? [[String: Any]] ?? []
        #expect(cells.map { $0["name"] as? String } == Self.tripByDate)
        #expect(cells.map { $0["index"] as? Int } == [1, 2, 3, 4])
        #expect(try daemon.ctl("sort", "name").exitCode == 0)
        let byName = try json("thumbnails")["cells"] as? [[String: Any]] ?? []
        #expect(byName.map { $0["name"] as? String } == Self.tripByName)
    }

    @Test func theOrderSurvivesADaemonRestart() throws {
        try openTrip(sort: "date")
        #expect(try daemon.ctl("select-photo", "--index", "2").exitCode == 0)
        #expect(daemon.stop() == 0)
        try daemon.start()
        #expect(names(try rows()) == Self.tripByDate)
        #expect(try currentPhoto() == ("IMG_10.jpg", 2))
        #expect(try daemon.ctl("select-photo", "--index", "1").exitCode == 0)
        #expect(try currentPhoto().name == "IMG_2.jpg")
    }

    @Test func allPhotosFollowsTheOrderAndItsTextRowsShowRelativePaths() throws {
        try openTrip(sort: "date")
        #expect(try daemon.ctl("select-album", "All Photos").exitCode == 0)
        let listed = try rows()
        #expect(listed.map { $0["path"] as? String } ==
                ["trip/IMG_2.jpg", "home/IMG_1.jpg", "trip/IMG_10.jpg", "trip/IMG_1.jpg", "trip/IMG_3.jpg"])
        let text = try daemon.ctl("photos")
        #expect(text.exitCode == 0)
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        // Each row shows its relative path, so the two IMG_1.jpg rows differ; the index picks that row.
        let homeRow = try #require(lines.first { $0.contains("home/IMG_1.jpg") })
        let tripRow = try #require(lines.first { $0.contains("trip/IMG_1.jpg") })
        #expect(homeRow.hasPrefix("2 ") && tripRow.hasPrefix("4 "), "\(lines)")
        #expect(try daemon.ctl("toggle", "--index", "4").exitCode == 0)
        let picked = try json("selection")["photos"] as? [[String: Any]] ?? []
        #expect(picked.map { $0["path"] as? String } == ["trip/IMG_1.jpg"])
        // Under name order All Photos keeps its own order, newest first (SPEC): EXIF date, else the
        // mtime — the undated IMG_3 was written just now, so it is the newest.
        #expect(try daemon.ctl("sort", "name").exitCode == 0)
        #expect(try rows().map { $0["path"] as? String } ==
                ["trip/IMG_3.jpg", "trip/IMG_2.jpg", "home/IMG_1.jpg", "trip/IMG_10.jpg", "trip/IMG_1.jpg"])
    }

    @Test func badSortWordsAreUsageErrorsBeforeTheDaemonIsAsked() throws {
        try openTrip()
        for args in [["sort", "size"], ["photos", "--sort", "newest"], ["session", "new", "x", "--width", "100", "--sort", "up"]] {
            let r = try daemon.ctl(args: args)
            #expect(r.exitCode == 2 && r.stdout.isEmpty, "\(args): \(r)")
        }
        #expect(names(try rows()) == Self.tripByName)
    }
}

/// Paging over a library bigger than one of pickerctl's pages (1000 rows).
@Suite(.enabled(if: DatedJPEGs.canMake, "needs /usr/bin/python3 with Pillow to make JPEGs"))
struct PhotoPagingTests {
    static let photoCount = 1_203

    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() throws {
        library = try TemporaryLibrary()
        // Three folders; every tenth photo has no EXIF date, the others a distinct one.
        let specs = (0..<Self.photoCount).map { i -> String in
            let date = i % 10 == 0 ? "" : "2020:01:01 \(Self.clock(i))"
            return "f\(i % 3)/P_\(i).jpg=\(date)"
        }
        try DatedJPEGs.make(in: library.url, specs)
        daemon = try LiveDaemon(library: library.url)
        try #require(try daemon.ctl("session", "new", "--width", "400").exitCode == 0)
        try #require(try daemon.ctl("select-album", "All Photos").exitCode == 0)
    }

    /// A distinct time of day for photo i ("HH:MM:SS").
    static func clock(_ i: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(i / 3600 % 24)):\(two(i / 60 % 60)):\(two(i % 60))"
    }

    private func page(_ args: String...) throws -> (total: Int?, paths: [String]) {
        let r = try daemon.ctl(args: ["photos", "--json"] + args)
        try #require(r.exitCode == 0, "\(r)")
        let doc = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let rows = doc["photos"] as? [[String: Any]] ?? []
        return (doc["total"] as? Int, rows.compactMap { $0["path"] as? String })
    }

    @Test(arguments: ["name", "date"])
    func pagesReturnEveryPhotoExactlyOnce(_ sort: String) throws {
        #expect(try daemon.ctl("sort", sort).exitCode == 0)
        let everything = try page()
        #expect(everything.total == Self.photoCount)
        #expect(everything.paths.count == Self.photoCount)
        #expect(Set(everything.paths).count == Self.photoCount)
        var paged: [String] = []
        var offset = 0
        while offset < Self.photoCount {
            let p = try page("--offset", "\(offset)", "--limit", "400")
            #expect(p.total == Self.photoCount)
            #expect(p.paths.count == min(400, Self.photoCount - offset))
            paged += p.paths
            offset += 400
        }
        #expect(paged == everything.paths)
    }

    @Test func textListingIsStreamedInPagesWithOneRowPerPhoto() throws {
        let r = try daemon.ctl("photos")
        #expect(r.exitCode == 0)
        let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == Self.photoCount)
        #expect(lines.last?.hasPrefix("\(Self.photoCount) ") == true)
        #expect(lines.allSatisfy { $0.contains("/P_") })
    }

    @Test func anOffsetPastTheEndIsNoSuchPage() throws {
        let r = try daemon.ctl("photos", "--offset", "\(Self.photoCount)")
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("no page at offset \(Self.photoCount)"), "\(r.stderr)")
        let last = try page("--offset", "\(Self.photoCount - 1)", "--limit", "5")
        #expect(last.paths.count == 1)
    }
}
