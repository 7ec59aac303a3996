import Foundation
import Testing

/// The library folder itself deleted or moved away while the daemon runs: the library is empty
/// (All Photos with no photos) while nothing is at the configured path, nothing is served from the
/// folder that went, and a folder made at the path again is scanned and served. Done by hand, the
/// way a user would: `mv`, `rm -rf`, `cp -r`, with a live daemon and `pickerctl`.
@Suite(.timeLimit(.minutes(15))) struct LibraryRootGoneTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon
    let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
    /// Where the library is moved away to (beside it, removed at the end).
    let movedAway: URL

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(photo, album: "A", as: "one.jpg")
        try library.add(photo, album: "A", as: "two.jpg")
        movedAway = URL(fileURLWithPath: library.url.path + ".moved")
        daemon = try await LiveDaemon(library: library.url)
    }

    /// `library --json`: (albums, photos), nil when it does not answer.
    private func counts() async -> (albums: Int, photos: Int)? {
        guard let r = try? await daemon.ctl("library", "--json"), r.exitCode == 0,
              let o = try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any],
              let albums = o["albums"] as? Int, let photos = o["photos"] as? Int else { return nil }
        return (albums, photos)
    }

    /// Polls (every 100 ms, for 15 s from now) until `condition` holds; the caller's #expect names what.
    private func eventually(_ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if await condition() { return true }
            await pause(100_000)
        }
        return await condition()
    }

    /// The folder stays gone a while, as when a user moves it and comes back later: longer than
    /// the settle delay and any rescan the going started (one of those found a folder copied back
    /// at once, and hid that nothing looked at the path after it). Not an assertion on time.
    private func stayGoneAWhile() async { await pause(2_000_000) }

    private func isEmptyLibrary() async -> Bool {
        guard let c = await counts() else { return false }
        return c.albums == 1 && c.photos == 0
    }

    /// Relative paths of every photo listed in All Photos.
    private func allPhotoPaths() async throws -> [String] {
        _ = try await daemon.ctl("session", "new", "lister", "--width", "100")
        _ = try await daemon.ctl("select-album", "All Photos", session: "lister")
        let r = try await daemon.ctl("photos", "--json", session: "lister")
        let list = (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return list.compactMap { $0["path"] as? String ?? $0["name"] as? String }
    }

    private func shell(_ program: String, _ args: String...) async throws {
        let r = try await runProcess(program, args)
        try #require(r.exitCode == 0, "\(program) \(args): \(r)")
    }

    @Test func aLibraryMovedAwayIsEmptyAndServesAgainOnceCopiedBack() async throws {
        defer { _ = try? runProcessBlocking("/bin/rm", ["-rf", movedAway.path]) }
        _ = try await daemon.ctl("session", "new", "s", "--width", "100")
        _ = try await daemon.ctl("select-album", "A", session: "s")
        await #expect(try daemon.ctl("select-photo", "one.jpg", session: "s").exitCode == 0)

        try await shell("/bin/mv", library.url.path, movedAway.path)
        let emptyWhileAway = await eventually(isEmptyLibrary)
        let seen1 = await counts()
        #expect(emptyWhileAway, "empty while moved away: \(String(describing: seen1))\n\(daemon.log)")
        let albums = try await daemon.ctl("albums", "--json")
        #expect(!albums.stdoutText.contains("\"A\""), "no album A while the folder is gone: \(albums)")
        let gone = try await daemon.ctl("get-image", session: "s")
        #expect(gone.exitCode != 0 && !isPNG(gone.stdout), "the moved folder's photo is not served: \(gone)")
        await stayGoneAWhile()

        try await shell("/bin/cp", "-r", movedAway.path, library.url.path)
        let back = await eventually { await counts().map { $0.albums == 2 && $0.photos == 2 } ?? false }
        let seen2 = await counts()
        #expect(back, "back after the copy: \(String(describing: seen2))\n\(daemon.log)")
        await #expect(try daemon.ctl("select-album", "A", session: "s").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "one.jpg", session: "s").exitCode == 0)
        let image = try await daemon.ctl("get-image", session: "s")
        #expect(image.exitCode == 0 && isPNG(image.stdout), "the copied photo decodes: \(image)")
    }

    @Test func aLibraryDeletedAndMadeAgainWithOtherFilesListsTheNewFiles() async throws {
        try await shell("/bin/rm", "-rf", library.url.path)
        let emptyWhileDeleted = await eventually(isEmptyLibrary)
        let seen3 = await counts()
        #expect(emptyWhileDeleted, "empty while deleted: \(String(describing: seen3))\n\(daemon.log)")
        await stayGoneAWhile()

        try library.add(photo, album: "B", as: "fresh.jpg")  // makes the library folder again
        try library.add(photo, album: "", as: "top.jpg")
        let listed = await eventually { (try? await allPhotoPaths()).map { Set($0) == ["B/fresh.jpg", "top.jpg"] } ?? false }
        let seen4 = try? await allPhotoPaths()
        #expect(listed, "the new files: \(String(describing: seen4))\n\(daemon.log)")
        let albums = try await daemon.ctl("albums", "--json")
        #expect(albums.stdoutText.contains("\"B\"") && !albums.stdoutText.contains("\"A\""), "\(albums)")
    }

    /// The folder moved away stays readable through the descriptor the daemon had open; nothing
    /// done in it may reach the library. Ordered, not timed: the folder made at the library path
    /// after the late file is listed only once the daemon has looked, and the late file never is.
    @Test func aPhotoAddedToTheMovedAwayFolderIsNeverListed() async throws {
        defer { _ = try? runProcessBlocking("/bin/rm", ["-rf", movedAway.path]) }
        let watch = try LibraryWatchTests.Watch(daemon)
        await pause(200_000)  // the watcher subscribes
        try await shell("/bin/mv", library.url.path, movedAway.path)
        let emptyWhileAway = await eventually(isEmptyLibrary)
        let seen5 = await counts()
        #expect(emptyWhileAway, "empty while moved away: \(String(describing: seen5))\n\(daemon.log)")

        try FileManager.default.copyItem(at: photo, to: movedAway.appendingPathComponent("A/late.jpg"))
        try FileManager.default.createDirectory(at: movedAway.appendingPathComponent("New"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: photo, to: movedAway.appendingPathComponent("New/late2.jpg"))
        await stayGoneAWhile()
        try library.add(photo, album: "C", as: "marker.jpg")  // a new folder at the library path
        await #expect(watch.wait { _ in watch.all.added.contains("C/marker.jpg") }, "marker: \(watch.changes)\n\(daemon.log)")

        let announced = watch.all.added
        #expect(!announced.contains { $0.hasSuffix("late.jpg") || $0.hasSuffix("late2.jpg") }, "\(watch.changes)")
        let listed = try await allPhotoPaths()
        #expect(listed == ["C/marker.jpg"], "\(listed)")
    }
}
