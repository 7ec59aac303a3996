import Foundation
import Testing

/// Issue 26 #2: a session made with a photo filter (`session new --filter`, the portal's `filters`)
/// shows only the photos it admits — listings, counts, indexes, steps and names — to every client,
/// and keeps it across a kill -9.
@Suite(.timeLimit(.minutes(10))) struct SessionFilterTests {
    @Test func aFilteredSessionShowsOnlyWhatItAdmitsToEveryCommand() async throws {
        let library = try await TemporaryLibrary()
        let fixtures = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures")
        try library.add(fixtures.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A", as: "a.jpg")
        try library.add(fixtures.appendingPathComponent("pngsuite/basn2c08.png"), album: "A", as: "b.png")
        try library.add(fixtures.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "A", as: "c.JPG")
        try library.add(fixtures.appendingPathComponent("pngsuite/basn6a08.png"), album: "A", as: "d.PNG")
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-shared-thumbnails"])
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("session", "new", "f", "--width", "200", "--filter", "*.png *.PNG").exitCode == 0)
        await #expect(try daemon.ctl("session", "new", "all", "--width", "200").exitCode == 0)
        for session in ["f", "all"] { _ = try await daemon.ctl("select-album", "A", session: session) }

        let shown = try await daemon.ctl("photos", session: "f").stdoutText
        #expect(shown.contains("b.png") && shown.contains("d.PNG") && !shown.contains("a.jpg") && !shown.contains("c.JPG"), "\(shown)")
        let all = try await daemon.ctl("photos", session: "all").stdoutText
        #expect(all.contains("a.jpg") && all.contains("c.JPG"), "a session without a filter shows every photo: \(all)")
        let third = try await daemon.ctl("select-photo", "--index", "3", session: "f")
        #expect(third.exitCode == 4, "two photos, numbered 1 and 2: \(third)")
        let refused = try await daemon.ctl("select-photo", "a.jpg", session: "f")
        #expect(refused.exitCode == 4 && refused.stderr.contains("not among the photos this session shows"), "\(refused)")
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "f").exitCode == 0)
        await #expect(try daemon.ctl("next", session: "f").exitCode == 0)
        let past = try await daemon.ctl("next", session: "f")
        #expect(past.exitCode == 4, "d.PNG is the last photo shown: \(past)")
        let status = try await daemon.ctl("status", session: "f").stdoutText
        #expect(status.contains("d.PNG (2 of 2)") && status.contains("A (2)"), "\(status)")

        await daemon.stop(signal: SIGKILL)
        try await daemon.start()
        let again = try await daemon.ctl("photos", session: "f").stdoutText
        #expect(again.contains("b.png") && !again.contains("a.jpg"), "the filter is kept with the session: \(again)")
        let bad = try await daemon.ctl("session", "new", "g", "--width", "200", "--filter", "*.png\u{7f}")
        #expect(bad.exitCode != 0 && bad.stderr.contains("control characters"), "\(bad)")
    }
}
