import Foundation
import Testing

/// `i` in pick: the current photo's details (photoInfo) on the top line in place of the message,
/// following the photo while on, in the preview too; `?` lists it; `i` again gives the message back.
@Suite(.timeLimit(.minutes(15)), .enabled(if: findExecutable("tmux") != nil, "tmux is not installed"))
struct PickPhotoInfoTests {
    static let canon = "Canon EOS 5D Mark III, EF24-70mm f/2.8L USM, 1/200 s f/2.8 ISO 1000 35 mm, 2016-01-12 15:33:28, 5760x3840"

    @Test func iShowsTheCurrentPhotosDetailsAndFollowsIt() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"),
                        album: "Cam", as: "canon.jpg")
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "Cam", as: "plain.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "s", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Cam", session: "s").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "canon.jpg", session: "s").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "s", "--graphics", "none"], columns: 200)
        func topLine(_ screen: String) -> String { String(screen.split(separator: "\n").first ?? "") }
        try await pick.waitFor("the message") { topLine($0).contains("5760x3840 px") }

        try await pick.press("i")
        let shown = try await pick.waitFor("canon.jpg's details") { topLine($0).contains(Self.canon) }
        #expect(topLine(shown).hasSuffix("MB, JPEG"), "\(topLine(shown))")
        try await pick.press("j")
        // Until its details come, the line shows plain.jpg's message ("… px, … kB, JPEG"): wait for the details' "MB".
        let plain = try await pick.waitFor("plain.jpg's details") { topLine($0).hasSuffix("MB, JPEG") && !topLine($0).contains("Canon") }
        #expect(!topLine(plain).contains(" px,"), "the details, not the message: \(topLine(plain))")

        try await pick.press("p")
        try await pick.waitFor("the preview") { $0.contains("Esc back") }
        try await pick.press("k")
        try await pick.waitFor("canon.jpg's details in the preview") { topLine($0).contains(Self.canon) }
        try await pick.press("Escape")

        try await pick.press("?")
        let help = try await pick.waitFor("the help") { $0.contains("any key closes the help") }
        #expect(help.contains("the photo's details"), "\(help)")
        try await pick.press("q")
        try await pick.press("i")
        try await pick.waitFor("the message back") { topLine($0).contains("5760x3840 px") && !topLine($0).contains("Canon") }
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }

    @Test func aNarrowWindowDropsTheLeastOfTheDetailsFirst() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"),
                        album: "Cam", as: "canon.jpg")
        let daemon = try await LiveDaemon(library: library.url)
        #expect(try await daemon.ctl("session", "new", "s", "--width", "400").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "Cam", session: "s").exitCode == 0)
        #expect(try await daemon.ctl("select-photo", "canon.jpg", session: "s").exitCode == 0)
        let pick = try await PickTmux(daemon: daemon, arguments: ["--session", "s", "--graphics", "none"], columns: 80)
        try await pick.press("i")
        let screen = try await pick.waitFor("the short details") { $0.contains("Canon EOS 5D Mark III, 2016-01-12") }
        let top = String(screen.split(separator: "\n").first ?? "")
        #expect(top.count <= 80 && !top.contains("ISO"), "the exposure goes first: \(top)")
        try await pick.press("q")
        await #expect(try pick.waitForExit().code == 3)
    }
}
