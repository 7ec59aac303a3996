import Foundation
import Testing

/// A user's pick session, command by command, against a live daemon.
@Suite(.timeLimit(.minutes(15))) struct SessionFlowTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() throws {
        library = try TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        for n in [1, 3, 6, 8] {
            try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_\(n).jpg"), album: "2024/Kyoto")
        }
        try library.add(corpus.appendingPathComponent("exif-orientation/hopper_reference.webp"), album: "Pets")
        try library.add(corpus.appendingPathComponent("pngsuite/basn6a08.png"), album: "Pets", as: "IMG_10.png")
        try library.add(corpus.appendingPathComponent("pngsuite/basn2c08.png"), album: "Pets", as: "IMG_2.png")
        daemon = try LiveDaemon(library: library.url)
    }

    @Test func pickSessionSelectsAlbumAndPhotoAndReportsStatus() throws {
        #expect(try daemon.ctl("session", "new", "--width", "600", "--height", "400").exitCode == 0)
        let albums = try daemon.ctl("albums")
        #expect(albums.exitCode == 0)
        let names = albums.stdoutText.split(separator: "\n").map { String($0) }
        #expect(names.count == 3)
        #expect(names.first?.contains("All Photos") == true)
        #expect(names[1].contains("2024/Kyoto") && names[2].contains("Pets"))

        #expect(try daemon.ctl("select-album", "2024/Kyoto").exitCode == 0)
        let photos = try daemon.ctl("photos", "--json")
        #expect(photos.exitCode == 0)
        let json = try JSONSerialization.jsonObject(with: photos.stdout) as? [String: Any]
        let list = json?["photos"] as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["Landscape_1.jpg", "Landscape_3.jpg", "Landscape_6.jpg", "Landscape_8.jpg"])
        // Each row carries its path relative to the library root, which tells apart same-named photos in "All Photos".
        #expect(list.map { $0["path"] as? String } == list.map { ($0["name"] as? String).map { "2024/Kyoto/" + $0 } })
        #expect(list.allSatisfy { $0["path"] is String })
        // Displayed size is after orientation: the _6 file is stored 1200x1800.
        #expect(list[2]["width"] as? Int == 1800 && list[2]["height"] as? Int == 1200)

        #expect(try daemon.ctl("select-photo", "--index", "3").exitCode == 0)
        let status = try daemon.ctl("status", "--json")
        let s = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any]
        #expect(s?["photo"] as? String == "Landscape_6.jpg")
        #expect(s?["title"] as? String == "Photo Library")
        #expect((s?["message"] as? String)?.hasPrefix("1800x1200 px, ") == true)
        #expect((s?["message"] as? String)?.hasSuffix(", JPEG") == true)

        #expect(try daemon.ctl("next").exitCode == 0)
        #expect(try daemon.ctl("status").stdoutText.contains("Landscape_8.jpg (4 of 4)"))
        let atEnd = try daemon.ctl("next")
        #expect(atEnd.exitCode == 4)
        #expect(try daemon.ctl("prev").exitCode == 0)
        #expect(try daemon.ctl("status").stdoutText.contains("Landscape_6.jpg (3 of 4)"))

        let out = daemon.directory.appendingPathComponent("out.png")
        let image = try daemon.ctl("get-image", "-o", out.path)
        #expect(image.exitCode == 0, "\(image)")
        let data = try Data(contentsOf: out)
        #expect(pngSize(data).map { $0 == (600, 400) } == true)
    }

    @Test func namesSortNaturallyAndFormatComesFromBytes() throws {
        #expect(try daemon.ctl("session", "new", "n", "--width", "100").exitCode == 0)
        #expect(try daemon.ctl("select-album", "Pets", session: "n").exitCode == 0)
        let photos = try daemon.ctl("photos", "--json", session: "n")
        let list = (try JSONSerialization.jsonObject(with: photos.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["hopper_reference.webp", "IMG_2.png", "IMG_10.png"])
        #expect(list.map { $0["format"] as? String } == ["WebP", "PNG", "PNG"])
    }

    @Test func switchingAlbumClearsTheCurrentPhoto() throws {
        #expect(try daemon.ctl("session", "new", "sw", "--width", "200", "--height", "200").exitCode == 0)
        #expect(try daemon.ctl("select-album", "--index", "2", session: "sw").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "Landscape_1.jpg", session: "sw").exitCode == 0)
        #expect(try daemon.ctl("select-album", "Pets", session: "sw").exitCode == 0)
        let status = try daemon.ctl("status", "--json", session: "sw")
        let s = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any]
        #expect(s?["photo"] is NSNull)
        #expect(s?["message"] as? String == "")
        let image = try daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("image.png").path, session: "sw")
        #expect(image.exitCode == 3)
        #expect(image.stdout.isEmpty)
    }

    @Test func resizeChangesTheOutputAndWidthOnlyPanesBoundByWidth() throws {
        #expect(try daemon.ctl("session", "new", "rs", "--width", "300", session: nil).exitCode == 0)
        #expect(try daemon.ctl("select-album", "2024/Kyoto", session: "rs").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "Landscape_6.jpg", session: "rs").exitCode == 0)
        let a = try daemon.ctl("get-image", session: "rs")
        #expect(pngSize(a.stdout).map { $0 == (300, 200) } == true, "\(a.stderr)")
        #expect(try daemon.ctl("session", "resize", "--width", "100", "--height", "100", session: "rs").exitCode == 0)
        let b = try daemon.ctl("get-image", session: "rs")
        #expect(pngSize(b.stdout).map { $0 == (100, 66) } == true)
        // Never upscaled: a 32x32 PNG in a big pane stays 32x32.
        #expect(try daemon.ctl("select-album", "Pets", session: "rs").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "IMG_2.png", session: "rs").exitCode == 0)
        let c = try daemon.ctl("get-image", session: "rs")
        #expect(pngSize(c.stdout).map { $0 == (32, 32) } == true)
    }

    @Test func otherOutputFormatsAreReal() throws {
        #expect(try daemon.ctl("session", "new", "f", "--width", "320", "--height", "240").exitCode == 0)
        #expect(try daemon.ctl("select-album", "2024/Kyoto", session: "f").exitCode == 0)
        #expect(try daemon.ctl("select-photo", "--index", "1", session: "f").exitCode == 0)
        for (format, pil) in [("jpeg", "JPEG"), ("webp", "WEBP"), ("png", "PNG")] {
            let out = daemon.directory.appendingPathComponent("out.\(format)")
            // --quality only for the lossy formats: with PNG it is a usage error (issue 16).
            let quality = format == "png" ? [] : ["--quality", "70"]
            let r = try daemon.ctl(args: ["get-image", "--format", format] + quality + ["-o", out.path], session: "f")
            #expect(r.exitCode == 0, "\(r)")
            let info = try ImageCheck.info(out)
            #expect(info.format == pil && info.width == 320 && info.height == 213)
        }
    }

    @Test func sessionsAreListedShownAndClosed() throws {
        #expect(try daemon.ctl("session", "new", "a1", "--width", "100", "--title", "Pick a cover").exitCode == 0)
        #expect(try daemon.ctl("session", "new", "a1", "--width", "100").exitCode == 1)
        let list = try daemon.ctl("session", "list", "--json")
        let arr = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        #expect(arr.contains { $0["session"] as? String == "a1" && $0["title"] as? String == "Pick a cover" })
        #expect(try daemon.ctl("session", "show", "a1").stdoutText.contains("Pick a cover"))
        #expect(try daemon.ctl("session", "close", "a1").exitCode == 0)
        #expect(try daemon.ctl("session", "show", "a1").exitCode == 4)
    }
}
