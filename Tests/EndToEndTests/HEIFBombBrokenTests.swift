import Foundation
import PickerClient
import PickerProtocol
import Testing

/// HEIF bombs end like every other decode failure (issue 23 #5): a clear per-request error, the photo
/// marked broken (listing, session message, grid cell) and announced once, other photos still served.
/// The files are in fuzz/regressions/image/: two grids refused before libheif decodes a tile
/// (Tests/tools/make_heif_grid_bombs.py) and one whose `ispe` says 512x512 over an 8000x8000 HEVC
/// picture, stopped at the decoder worker's memory cap. Before: each answered `image_too_large` and
/// stayed listed as a good 512x512 photo with a grey placeholder cell, since `image_too_large` never
/// marked a photo (it also means "over --memory-mb", which says nothing about the file).
@Suite(.timeLimit(.minutes(15))) struct HEIFBombBrokenTests {
    static let regressions = TestEnvironment.packageRoot.appendingPathComponent("fuzz/regressions/image")
    static let fixtures = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures")
    /// Each bomb, its error code and what its error and broken reason must say. Where an allocation
    /// meets the worker's memory cap decides which: malloc answers NULL (`image_too_large`, "…its
    /// N MiB memory cap"), or a C++ `new` throws inside libheif/libde265 and the worker aborts
    /// (`corrupt_image`, "the decoder was stopped: signal SIGABRT"); both mark the photo.
    static let bombs: [(String, [(ErrorCode, String)])] = [
        ("heic-grid-output-16384-ispe-512.heic", [(.imageTooLarge, "its grid composes 16384x16384")]),
        ("heic-grid-40000-tiles.heic", [(.imageTooLarge, "a grid of 40000 tiles")]),
        ("heic-ispe-512-codes-8000x8000.heic", [(.imageTooLarge, "memory cap"), (.corruptImage, "the decoder was stopped")]),
    ]
    static let good = ["basn2c08.png", "libheif_rainbow-451x461.heic"]

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    private func rows(_ daemon: LiveDaemon, _ session: String) async throws -> [String: [String: Any]] {
        let list = try json(try await daemon.ctl("photos", "--json", session: session))["photos"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func everyHEIFBombGetsItsErrorAndIsMarkedBrokenWhileOtherPhotosAreServed() async throws {
        let library = try await TemporaryLibrary()
        for (file, _) in Self.bombs { try library.add(Self.regressions.appendingPathComponent(file), album: "hostile") }
        try library.add(Self.fixtures.appendingPathComponent("pngsuite/basn2c08.png"), album: "small")
        try library.add(Self.fixtures.appendingPathComponent("heic/libheif_rainbow-451x461.heic"), album: "small")
        // No prefetch: only this test's requests decode, so the marks and events are theirs.
        let daemon = try await LiveDaemon(library: library.url,
                                          extraArguments: ["--memory-mb", "64", "--no-prefetch", "--no-shared-thumbnails"])
        defer { daemon.stopBlocking() }
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "listener")
        _ = try listener.receive(id: try listener.send(.subscribe(Subscription(session: nil, library: true))))
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "attacker")
        for (session, album) in [("bomb", "hostile"), ("other", "small")] {
            _ = try conn.call(.sessionNew(NewSession(name: session, width: 640, height: 480)))
            _ = try conn.call(.selectAlbum(session: session, .name(album)))
        }
        for (file, outcomes) in Self.bombs {
            #expect(try await rows(daemon, "bomb")[file]?["broken"] == nil, "\(file) is not marked before a decode")
            _ = try conn.call(.selectPhoto(session: "bomb", .name(file)))
            do {
                _ = try conn.call(.getImage(ImageRequest(session: "bomb", noCache: true)))
                Issue.record("\(file) was served")
            } catch {
                guard case .server(let e) = error else { throw error }
                #expect(e.message.hasPrefix("\(file): "), "the error names the photo: \(e.message)")
                #expect(outcomes.contains { e.code == $0.0 && e.message.contains($0.1) }, "\(file): \(e.code) \(e.message)")
            }
            let reason = try await rows(daemon, "bomb")[file]?["broken"] as? String ?? ""
            #expect(outcomes.contains { reason.contains($0.1) }, "\(file) listed broken with the reason: '\(reason)'")
            let status = try json(try await daemon.ctl("status", "--json", session: "bomb"))
            #expect(status["message"] as? String == "cannot be shown: \(reason)", "\(status)")
            // The other session's photos are served meanwhile, through the same pool.
            for photo in Self.good {
                _ = try await daemon.ctl("select-photo", photo, session: "other")
                let served = try await daemon.ctl("get-image", "--no-cache", "-o", "/dev/null", session: "other")
                #expect(served.exitCode == 0, "\(photo) after \(file): \(served)")
            }
        }
        let cells = try json(try await daemon.ctl("thumbnails", "--json", session: "bomb"))["cells"] as? [[String: Any]] ?? []
        #expect(cells.map { $0["broken"] as? Bool } == [true, true, true], "\(cells)")

        // The budget's refusal (a preview larger than all of --memory-mb) is image_too_large too,
        // but about the daemon, not the file: the photo stays unmarked and is still served.
        _ = try await daemon.ctl("select-photo", Self.good[0], session: "other")
        let refused = try await daemon.ctl("preview", "--width", "8192", "--height", "8192", "-o", "/dev/null", session: "other")
        #expect(refused.exitCode == 1 && refused.stderr.contains("--memory-mb"), "\(refused)")
        #expect(try await rows(daemon, "other")[Self.good[0]]?["broken"] == nil)
        await #expect(try daemon.ctl("get-image", "--no-cache", "-o", "/dev/null", session: "other").exitCode == 0)

        // Each bomb was announced once, under `changed`, and nothing else was.
        let ping = try listener.send(.ping)
        var changed: [String] = []
        while true {
            let f = try listener.nextFrame()
            if f.isEvent, case .libraryChanges(let c) = try Event(frame: f) { changed += c.changed }
            if !f.isEvent && f.requestID == ping { break }
        }
        #expect(changed.sorted() == Self.bombs.map { "hostile/\($0.0)" }.sorted(), "\(changed)")
    }

    /// An `image_too_large` mark may depend on `--max-megapixels`, so it is not written to the index:
    /// after a restart the photo is unmarked until its next decode finds it again (a corrupt file's
    /// mark is kept: `BrokenPhotoTests.brokenMarkIsKeptAcrossARestartInTheLibraryIndex`).
    @Test func aTooLargeMarkIsFoundAgainAfterARestartNotRestored() async throws {
        let library = try await TemporaryLibrary()
        let file = Self.bombs[0].0
        try library.add(Self.regressions.appendingPathComponent(file), album: "hostile")
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch", "--no-shared-thumbnails"])
        defer { daemon.stopBlocking() }
        func open() async throws {
            _ = try await daemon.ctl("session", "new", "b", "--width", "640", "--exist-ok")
            _ = try await daemon.ctl("select-album", "hostile", session: "b")
            _ = try await daemon.ctl("select-photo", file, session: "b")
        }
        try await open()
        await #expect(try daemon.ctl("get-image", "--no-cache", "-o", "/dev/null", session: "b").exitCode == 1)
        #expect(try await rows(daemon, "b")[file]?["broken"] != nil)
        try await Task.sleep(nanoseconds: 1_500_000_000)  // the watcher's turn that would write marks
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        try await open()
        #expect(try await rows(daemon, "b")[file]?["broken"] == nil, "restored from the index")
        await #expect(try daemon.ctl("get-image", "--no-cache", "-o", "/dev/null", session: "b").exitCode == 1)
        let reason = try await rows(daemon, "b")[file]?["broken"] as? String ?? ""
        #expect(reason.contains(Self.bombs[0].1.first?.1 ?? "?"), "\(reason)")
    }
}
