import Foundation
import Testing

/// `pickerctl -o FILE` writes through the shared atomic writer.
@Suite(.timeLimit(.minutes(15))) struct OutputFileTests {
    @Test func outputFileReplacesASymlinkInsteadOfFollowingItAndLeavesNoTempFile() throws {
        let library = try TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        let daemon = try LiveDaemon(library: library.url)
        #expect(try daemon.ctl("session", "new", "o", "--width", "64").exitCode == 0)
        #expect(try daemon.ctl("select-album", "A", session: "o").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "--index", "1", session: "o").exitCode == 0)
        let folder = daemon.directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = daemon.directory.appendingPathComponent("victim.txt")
        try Data("keep me\n".utf8).write(to: victim)
        let out = folder.appendingPathComponent("img.png")
        try FileManager.default.createSymbolicLink(atPath: out.path, withDestinationPath: victim.path)

        let r = try daemon.ctl("get-image", "-o", out.path, session: "o")
        #expect(r.exitCode == 0, "\(r)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        #expect(isPNG(try Data(contentsOf: out)))
        var st = stat()
        #expect(lstat(out.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["img.png"])
    }
}
