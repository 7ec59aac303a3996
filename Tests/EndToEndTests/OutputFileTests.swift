import Foundation
import Testing

/// `pickerctl -o FILE` writes through the shared atomic writer.
@Suite(.timeLimit(.minutes(15))) struct OutputFileTests {
    @Test func outputFileReplacesASymlinkInsteadOfFollowingItAndLeavesNoTempFile() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "o", "--width", "64").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "o").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "o").exitCode == 0)
        let folder = daemon.directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = daemon.directory.appendingPathComponent("victim.txt")
        try Data("keep me\n".utf8).write(to: victim)
        let out = folder.appendingPathComponent("img.png")
        try FileManager.default.createSymbolicLink(atPath: out.path, withDestinationPath: victim.path)

        let r = try await daemon.ctl("get-image", "-o", out.path, session: "o")
        #expect(r.exitCode == 0, "\(r)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        #expect(isPNG(try Data(contentsOf: out)))
        var st = stat()
        #expect(lstat(out.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["img.png"])
    }

    @Test func dashIsStdoutNotAFileNamedDash() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(try daemon.ctl("session", "new", "d", "--width", "64").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "d").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "d").exitCode == 0)
        let dash = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("-")
        let existed = FileManager.default.fileExists(atPath: dash.path)

        let image = try await daemon.ctl("get-image", "-o", "-", session: "d")
        #expect(image.exitCode == 0, "\(image)")
        #expect(isPNG(image.stdout), "a PNG on stdout: \(image)")
        let text = try await daemon.ctl("photos", "-o", "-", session: "d")
        #expect(text.exitCode == 0 && text.stdoutText.contains("Landscape_1.jpg"), "\(text)")
        #expect(existed || !FileManager.default.fileExists(atPath: dash.path), "a file named - was written")
    }
}
