import Foundation
import Testing

/// A camera's RAW+JPEG pair is one photo (issue 27 item 1), as a user sees it through pickerctl: the
/// JPEG is listed and counted once, `info` names the RAW, picking the pair gives the JPEG's path,
/// `pickerd --show-raw-pairs` lists both, and the watcher keeps it right as the JPEG comes and goes.
/// The RAW files are in Tests/Fixtures/raw as well as the full corpus.
@Suite(.timeLimit(.minutes(15))) struct RawPairTests {
    static let dng = TestEnvironment.corpus.root.appendingPathComponent("raw/photoprism_canon_eos_6d.dng")
    static let cr3 = TestEnvironment.corpus.root.appendingPathComponent("raw/nomexif_canon-r6_truncated.cr3")
    static let jpeg = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")

    /// Cam: IMG_0001.DNG + IMG_0001.JPG (a pair), IMG_0002.CR3 alone, IMG_0003.jpg; Other: IMG_0001.DNG
    /// alone (the same stem in another folder is no pair).
    private static func cameraLibrary() async throws -> TemporaryLibrary {
        let library = try await TemporaryLibrary()
        try library.add(dng, album: "Cam", as: "IMG_0001.DNG")
        try library.add(jpeg, album: "Cam", as: "IMG_0001.JPG")
        try library.add(cr3, album: "Cam", as: "IMG_0002.CR3")
        try library.add(jpeg, album: "Cam", as: "IMG_0003.jpg")
        try library.add(dng, album: "Other", as: "IMG_0001.DNG")
        return library
    }

    private func json(_ r: CommandResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(r.stdout))
    }

    private func names(_ daemon: LiveDaemon, _ album: String) async throws -> [String] {
        _ = try await daemon.ctl("session", "new", "n", "--width", "100")
        _ = try await daemon.ctl("select-album", album, session: "n")
        let r = try await daemon.ctl("--json", "photos", session: "n")
        let list = (try json(r) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return list.compactMap { $0["name"] as? String }
    }

    private func albumCounts(_ daemon: LiveDaemon) async throws -> [String: Int] {
        let rows = try json(try await daemon.ctl("--json", "albums")) as? [[String: Any]] ?? []
        return Dictionary(rows.compactMap { row in (row["name"] as? String).map { ($0, row["photos"] as? Int ?? -1) } }) { a, _ in a }
    }

    @Test func aPairIsListedAndCountedOnceAsItsJPEGAndInfoNamesTheRAW() async throws {
        let library = try await Self.cameraLibrary()
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        #expect(try await names(daemon, "Cam") == ["IMG_0001.JPG", "IMG_0002.CR3", "IMG_0003.jpg"])
        #expect(try await names(daemon, "Other") == ["IMG_0001.DNG"])
        #expect(try await albumCounts(daemon) == ["All Photos": 4, "Cam": 3, "Other": 1])
        let info = try json(try await daemon.ctl("--json", "library")) as? [String: Any]
        #expect(info?["photos"] as? Int == 4, "\(String(describing: info))")
        #expect(try await daemon.ctl("select-album", "Cam", session: "n").exitCode == 0)

        let pair = try json(try await daemon.ctl("--json", "info", "IMG_0001.JPG", session: "n")) as? [String: Any]
        #expect(pair?["raw_companion"] as? String == "Cam/IMG_0001.DNG", "\(String(describing: pair))")
        #expect(pair?["format"] as? String == "JPEG")
        let text = try await daemon.ctl("info", "IMG_0001.JPG", session: "n")
        #expect(text.stdoutText.contains("RAW file:") && text.stdoutText.contains("Cam/IMG_0001.DNG"), "\(text)")
        let alone = try json(try await daemon.ctl("--json", "info", "IMG_0002.CR3", session: "n")) as? [String: Any]
        #expect(alone?.keys.contains("raw_companion") == true && alone?["raw_companion"] is NSNull, "\(String(describing: alone))")
        #expect(alone?["format"] as? String == "RAW")
        let aloneText = try await daemon.ctl("info", "IMG_0002.CR3", session: "n")
        #expect(aloneText.exitCode == 0 && !aloneText.stdoutText.contains("RAW file:"), "\(aloneText)")

        // The hidden RAW is no photo of the album; picking the pair picks the JPEG alone.
        let hiddenRAW = try await daemon.ctl("select-photo", "IMG_0001.DNG", session: "n")
        #expect(hiddenRAW.exitCode == 4, "\(hiddenRAW)")
        #expect(try await daemon.ctl("toggle", "IMG_0001.JPG", session: "n").exitCode == 0)
        let picked = try await daemon.ctl("selection", "--paths", session: "n")
        #expect(picked.stdoutText == library.url.resolvingSymlinksInPath().appendingPathComponent("Cam/IMG_0001.JPG").path + "\n",
                "\(picked)")
    }

    @Test func showRawPairsListsBothFilesAndInfoNamesNoCompanion() async throws {
        let library = try await Self.cameraLibrary()
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--show-raw-pairs"])
        defer { daemon.stopBlocking() }
        #expect(try await names(daemon, "Cam") == ["IMG_0001.DNG", "IMG_0001.JPG", "IMG_0002.CR3", "IMG_0003.jpg"])
        #expect(try await albumCounts(daemon) == ["All Photos": 5, "Cam": 4, "Other": 1])
        #expect(try await daemon.ctl("select-album", "Cam", session: "n").exitCode == 0)
        let info = try json(try await daemon.ctl("--json", "info", "IMG_0001.JPG", session: "n")) as? [String: Any]
        #expect(info?["raw_companion"] is NSNull, "\(String(describing: info))")
    }

    @Test func theWatcherShowsTheRAWWhenItsJPEGGoesAndHidesItWhenItComesBack() async throws {
        let library = try await Self.cameraLibrary()
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let jpeg = library.url.appendingPathComponent("Cam/IMG_0001.JPG")
        try FileManager.default.removeItem(at: jpeg)
        let shown = await until { try await names(daemon, "Cam") == ["IMG_0001.DNG", "IMG_0002.CR3", "IMG_0003.jpg"] }
        let afterDelete = try await names(daemon, "Cam")
        #expect(shown, "the RAW listed once its JPEG is gone: \(afterDelete)")
        #expect(try await albumCounts(daemon)["Cam"] == 3)

        try FileManager.default.copyItem(at: Self.jpeg, to: jpeg)
        let hidden = await until { try await names(daemon, "Cam") == ["IMG_0001.JPG", "IMG_0002.CR3", "IMG_0003.jpg"] }
        let afterAdd = try await names(daemon, "Cam")
        #expect(hidden, "the RAW hidden again: \(afterAdd)")
        #expect(try await albumCounts(daemon) == ["All Photos": 4, "Cam": 3, "Other": 1])

        // A JPEG added next to the RAW that was alone in Other pairs them too; a session that was
        // looking at the RAW and had picked it now has the pair, the JPEG, in both places.
        for args in [["session", "new", "w", "--width", "100"], ["select-album", "Other"], ["select-photo", "IMG_0001.DNG"],
                     ["toggle", "IMG_0001.DNG"]] {
            let r = try await daemon.ctl(args: args, session: args[0] == "session" ? nil : "w")
            #expect(r.exitCode == 0, "\(args): \(r)")
        }
        try FileManager.default.copyItem(at: Self.jpeg, to: library.url.appendingPathComponent("Other/IMG_0001.jpg"))
        let paired = await until { try await names(daemon, "Other") == ["IMG_0001.jpg"] }
        let other = try await names(daemon, "Other")
        #expect(paired, "Other: \(other)")
        let followed = await until {
            let s = try json(try await daemon.ctl("--json", "status", session: "w")) as? [String: Any]
            return s?["photo"] as? String == "IMG_0001.jpg"
        }
        let status = try await daemon.ctl("--json", "status", session: "w")
        #expect(followed && status.stdoutText.contains("\"photo_index\":1") && status.stdoutText.contains("\"selection_count\":1"),
                "\(status)")
        let picked = try await daemon.ctl("selection", "--paths", session: "w")
        #expect(picked.stdoutText.hasSuffix("Other/IMG_0001.jpg\n"), "\(picked)")

        // A restart loads the library from its index: still paired.
        await daemon.stop()
        try await daemon.start()
        #expect(try await names(daemon, "Cam") == ["IMG_0001.JPG", "IMG_0002.CR3", "IMG_0003.jpg"])
        #expect(try await names(daemon, "Other") == ["IMG_0001.jpg"])
        #expect(try await daemon.ctl("select-album", "Cam", session: "n").exitCode == 0)
        let info = try json(try await daemon.ctl("--json", "info", "IMG_0001.JPG", session: "n")) as? [String: Any]
        #expect(info?["raw_companion"] as? String == "Cam/IMG_0001.DNG")
    }

    /// Polls `condition` (every 100 ms, up to 15 s) until it holds: the watcher's rescan comes a moment
    /// after the change.
    private func until(_ condition: () async throws -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? await condition()) == true { return true }
            await pause(100_000)
        }
        return false
    }
}
