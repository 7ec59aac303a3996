import Foundation
import Testing

/// Issue 27 #3: an animated GIF, WebP or PNG is shown by its first frame, and `pickerctl info` says how
/// many frames it has and how long a pass plays — the same as Pillow reads from the same files.
@Suite(.timeLimit(.minutes(10))) struct AnimationInfoTests {
    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to make and read the animations"))
    func infoNamesTheFramesAndLengthOfEveryAnimationAndNothingForAStillPicture() async throws {
        let library = try await TemporaryLibrary()
        let album = library.url.appendingPathComponent("anim")
        let webp = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/webp/sharp_rotating-squares.webp")
        let made = try await runProcess(TestEnvironment.python,
                                        [TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_animations.py").path,
                                         album.path, webp.path])
        #expect(made.exitCode == 0, "\(made.stderr)")
        try library.add(webp, album: "anim")
        let expected = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: [String: Int]])
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch", "--no-shared-thumbnails"])
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("session", "new", "a", "--width", "64").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "anim", session: "a").exitCode == 0)

        for (name, pillow) in expected {
            let info = try await daemon.ctl("info", name, "--json", session: "a")
            #expect(info.exitCode == 0, "\(info)")
            let fields = try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any] ?? [:]
            if pillow["frames", default: 1] > 1 {
                #expect(fields["frames"] as? Int == pillow["frames"], "\(name): \(fields) against Pillow's \(pillow)")
                #expect(fields["duration_ms"] as? Int == pillow["duration_ms"], "\(name): \(fields) against Pillow's \(pillow)")
                let text = try await daemon.ctl("info", name, session: "a").stdoutText
                #expect(text.contains("Animation:") && text.contains("\(pillow["frames", default: 0]) frames"), "\(text)")
            } else {
                #expect(fields["frames"] is NSNull && fields["duration_ms"] is NSNull, "\(name) is still: \(fields)")
            }
        }
        #expect(expected.keys.contains("sharp_rotating-squares.webp") && expected.count == 6)
    }
}
