import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Nothing outside the library root is listed or read: symlinked folders and files that lead
/// outside are skipped, and names that try to escape (`..`, absolute paths, NUL bytes) are
/// refused by select-album, select-photo and toggle.
@Suite(.timeLimit(.minutes(15))) struct PathSafetyTests {
    let library: TemporaryLibrary
    let outsideFolder: TemporaryLibrary
    var outside: URL { outsideFolder.url }
    let daemon: LiveDaemon

    /// The library: album `A` with one real photo, plus a symlinked folder and a symlinked file
    /// that both lead to a folder outside the root holding a valid image.
    init() throws {
        let fm = FileManager.default
        let corpus = TestEnvironment.corpus.root
        library = try TemporaryLibrary()
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        try library.add(corpus.appendingPathComponent("exif-orientation/hopper_reference.webp"), album: "B")
        outsideFolder = try TemporaryLibrary()  // a temporary folder beside the library, removed with it
        let outside = outsideFolder.url
        let secretDir = outside.appendingPathComponent("Secret")
        try fm.createDirectory(at: secretDir, withIntermediateDirectories: true)
        try fm.copyItem(at: corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"),
                        to: secretDir.appendingPathComponent("secret.jpg"))
        // A folder symlink leading outside, a file symlink leading outside, and a relative
        // symlink that climbs out with "..".
        try fm.createSymbolicLink(at: library.url.appendingPathComponent("LinkedOut"), withDestinationURL: secretDir)
        try fm.createSymbolicLink(at: library.url.appendingPathComponent("A/leak.jpg"),
                                  withDestinationURL: secretDir.appendingPathComponent("secret.jpg"))
        try fm.createSymbolicLink(atPath: library.url.appendingPathComponent("B/climb.jpg").path,
                                  withDestinationPath: "../../\(outside.lastPathComponent)/Secret/secret.jpg")
        daemon = try LiveDaemon(library: library.url)
        #expect(try daemon.ctl("session", "new", "--width", "200", "--height", "200").exitCode == 0)
    }

    private func jsonObject(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    /// Asserts a refused name: exit 1 (invalid_name), one `pickerctl:` line on stderr, nothing on stdout.
    private func expectRefused(_ args: String..., mentioning: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try daemon.ctl(args: args)
        #expect(r.exitCode == 1, "\(args): \(r)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(args): \(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("pickerctl: ") && r.stderr.contains(mentioning), "\(args): \(r)",
                sourceLocation: sourceLocation)
    }

    @Test func symlinkedFoldersAndFilesLeadingOutsideAreNotListed() throws {
        let albums = try daemon.ctl("albums", "--json")
        #expect(albums.exitCode == 0, "\(albums)")
        let list = try JSONSerialization.jsonObject(with: albums.stdout) as? [[String: Any]] ?? []
        let names = list.compactMap { $0["name"] as? String }
        #expect(names == ["All Photos", "A", "B"], "\(albums)")

        let info = try jsonObject(try daemon.ctl("library", "--json"))
        #expect(info["photos"] as? Int == 2, "\(info)")

        for (album, expected) in [("All Photos", ["Landscape_1.jpg", "hopper_reference.webp"]), ("A", ["Landscape_1.jpg"]),
                                  ("B", ["hopper_reference.webp"])] {
            #expect(try daemon.ctl("select-album", album).exitCode == 0)
            let photos = try daemon.ctl("photos", "--json")
            let list = (try jsonObject(photos)["photos"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(Set(list.map { ($0 as NSString).lastPathComponent }) == Set(expected), "\(album): \(photos)")
        }
        // Asking for them by name finds nothing.
        #expect(try daemon.ctl("select-album", "LinkedOut").exitCode == 4)
        #expect(try daemon.ctl("select-album", "A").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "leak.jpg").exitCode == 4)
        #expect(try daemon.ctl("toggle", "leak.jpg").exitCode == 4)
    }

    @Test func namesWithDotDotAreRefused() throws {
        let escape = "../\(outside.lastPathComponent)/Secret"
        try expectRefused("select-album", escape, mentioning: "..")
        try expectRefused("select-album", "A/../B", mentioning: "..")
        try expectRefused("select-album", "..", mentioning: "..")
        #expect(try daemon.ctl("select-album", "A").exitCode == 0)
        try expectRefused("select-photo", "../../\(outside.lastPathComponent)/Secret/secret.jpg", mentioning: "..")
        try expectRefused("select-photo", "../B/hopper_reference.webp", mentioning: "..")
        try expectRefused("toggle", "../\(outside.lastPathComponent)/Secret/secret.jpg", mentioning: "..")
        try expectRefused("toggle", "A/../../etc/passwd", mentioning: "..")
        // Nothing changed: no current photo, empty pick list.
        let status = try jsonObject(try daemon.ctl("status", "--json"))
        #expect((status["photo"] as? String ?? "").isEmpty, "\(status)")
        let picked = try jsonObject(try daemon.ctl("selection", "--json"))
        #expect(picked["count"] as? Int == 0, "\(picked)")
    }

    @Test func absolutePathsAreRefused() throws {
        let secret = outside.appendingPathComponent("Secret/secret.jpg").path
        try expectRefused("select-album", outside.appendingPathComponent("Secret").path, mentioning: "absolute")
        try expectRefused("select-album", library.url.appendingPathComponent("A").path, mentioning: "absolute")
        #expect(try daemon.ctl("select-album", "A").exitCode == 0)
        try expectRefused("select-photo", secret, mentioning: "absolute")
        try expectRefused("select-photo", "/etc/passwd", mentioning: "absolute")
        try expectRefused("toggle", secret, mentioning: "absolute")
        try expectRefused("toggle", library.url.appendingPathComponent("A/Landscape_1.jpg").path, mentioning: "absolute")
    }

    /// argv cannot carry a NUL byte, so this goes through the protocol.
    @Test func namesWithNULBytesAreRefused() throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "path-safety")
        func expectInvalidName(_ request: Request, sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                let reply = try conn.call(request)
                Issue.record("\(request) answered \(reply)", sourceLocation: sourceLocation)
            } catch .server(let e) {
                #expect(e.code == .invalidName, "\(request): \(e)", sourceLocation: sourceLocation)
                #expect(e.message.contains("NUL"), "\(request): \(e)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(request): \(error)", sourceLocation: sourceLocation)
            }
        }
        expectInvalidName(.selectAlbum(session: "default", .name("A\u{0}")))
        expectInvalidName(.selectAlbum(session: "default", .name("A\u{0}/../../etc")))
        _ = try conn.call(.selectAlbum(session: "default", .name("A")))
        expectInvalidName(.selectPhoto(session: "default", .name("Landscape_1.jpg\u{0}")))
        expectInvalidName(.selectPhoto(session: "default", .name("\u{0}")))
        expectInvalidName(.toggle(session: "default", .name("Landscape_1.jpg\u{0}.png")))
        // The connection and the daemon carry on.
        #expect(try conn.call(.ping) == .pong(serverVersion: conn.capabilities.serverVersion))
        #expect(try daemon.ctl("select-photo", "Landscape_1.jpg").exitCode == 0)
    }

    /// A photo swapped for a symlink to an outside file after the scan is not read through it.
    @Test func photoReplacedByAnOutsideSymlinkAfterTheScanIsNotRead() throws {
        #expect(try daemon.ctl("select-album", "A").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "Landscape_1.jpg").exitCode == 0)
        let photo = library.url.appendingPathComponent("A/Landscape_1.jpg")
        try FileManager.default.removeItem(at: photo)
        try FileManager.default.createSymbolicLink(at: photo, withDestinationURL: outside.appendingPathComponent("Secret/secret.jpg"))
        let out = daemon.directory.appendingPathComponent("swapped.png")
        let r = try daemon.ctl("get-image", "--no-cache", "-o", out.path)
        #expect(r.exitCode != 0, "an outside file was served through a swapped-in symlink: \(r)")
        #expect(r.exitCode == 1 || r.exitCode == 4, "\(r)")
        #expect(try daemon.ctl("ping").exitCode == 0)
    }
}
