import Foundation
import Testing

/// README's pickerd options and defaults, each seen from outside: `--max-megapixels`, the library
/// root (`--library`, `$PICKER_LIBRARY`, the XDG pictures folder, `~/Pictures`), `--state-dir`
/// and `$XDG_STATE_HOME`, `PICKERD_LOG_LEVEL`, `--cache-mb`.
@Suite(.timeLimit(.minutes(15))) struct DaemonOptionsTests {
    let scratch: ScratchDirectory

    init() async throws { scratch = try await ScratchDirectory() }

    private func folder(_ name: String) throws -> URL {
        let url = scratch.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func json(_ r: CommandResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any] ?? [:]
    }

    // MARK: --max-megapixels

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to make the photos"))
    func photoAboveMaxMegapixelsIsRefusedWithTheErrorAndOthersAreServed() async throws {
        let library = try await TemporaryLibrary()
        let album = library.url.appendingPathComponent("A")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try await ClaimImages.solid(album.appendingPathComponent("big.jpg"), width: 1200, height: 1000, rgb: (200, 50, 50))  // 1.2 Mpx
        try await ClaimImages.solid(album.appendingPathComponent("small.jpg"), width: 900, height: 1000, rgb: (50, 200, 50))  // 0.9 Mpx
        let capped = try await LiveDaemon(library: library.url, extraArguments: ["--max-megapixels", "1"])
        _ = try await capped.ctl("session", "new", "--width", "300")
        _ = try await capped.ctl("select-album", "A")
        _ = try await capped.ctl("select-photo", "big.jpg")
        let refused = try await capped.ctl("get-image", "-o", capped.directory.appendingPathComponent("big.png").path)
        #expect(refused.exitCode == 1, "\(refused)")
        #expect(refused.stderr.contains("'A/big.jpg' is too large: it declares 1200x1000 pixels, over the 1 Mpx cap"), "\(refused.stderr)")
        _ = try await capped.ctl("select-photo", "small.jpg")
        await #expect(try capped.ctl("get-image", "-o", capped.directory.appendingPathComponent("small.png").path).exitCode == 0)
        await #expect(try capped.ctl("ping").exitCode == 0, "the daemon goes on serving")
        // The default (200 Mpx) serves the same photo.
        let uncapped = try await LiveDaemon(library: library.url)
        _ = try await uncapped.ctl("session", "new", "--width", "300")
        _ = try await uncapped.ctl("select-album", "A")
        _ = try await uncapped.ctl("select-photo", "big.jpg")
        let served = try await uncapped.ctl("get-image", "-o", uncapped.directory.appendingPathComponent("big.png").path)
        #expect(served.exitCode == 0, "\(served)")
    }

    // MARK: library root

    /// Starts pickerd with only `environment` (and a private socket and state folder); the library root it reports.
    private func libraryRoot(environment: [String: String], arguments: [String] = []) async throws -> String? {
        let socket = scratch.path("lib-\(UUID().uuidString.prefix(6)).sock")
        let daemon = try await BareDaemon(arguments: ["--socket", socket, "--state-dir", scratch.path("state"), "--no-shared-thumbnails"] + arguments,
                                    environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }, logDirectory: scratch.url)
        var info: [String: Any] = [:]
        _ = try await eventually {
            let r = try await bareCtl(["--socket", socket, "library", "--json"], environment: [:])
            info = json(r)
            return r.exitCode == 0 || !daemon.isRunning
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        return info["root"] as? String
    }

    @Test func libraryRootFollowsOptionThenPickerLibraryThenXDGPicturesThenHomePictures() async throws {
        let home = try folder("home")
        let fromOption = try folder("option"), fromVariable = try folder("variable")
        let pictures = try folder("home/Pictures"), photos = try folder("home/Photos")
        let config = try folder("config")
        try "# written by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/Photos\"\n"
            .write(to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        let all = ["HOME": home.path, "PICKER_LIBRARY": fromVariable.path, "XDG_CONFIG_HOME": config.path]
        await #expect(try libraryRoot(environment: all, arguments: ["--library", fromOption.path]) == fromOption.path)
        await #expect(try libraryRoot(environment: all) == fromVariable.path)
        var noVariable = all
        noVariable["PICKER_LIBRARY"] = nil
        await #expect(try libraryRoot(environment: noVariable) == photos.path, "XDG_PICTURES_DIR from $XDG_CONFIG_HOME/user-dirs.dirs")
        await #expect(try libraryRoot(environment: ["HOME": home.path]) == pictures.path, "~/Pictures without user-dirs.dirs")
    }

    // MARK: state folder

    @Test func sessionsAreSavedInStateDirElseUnderXDGStateHome() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        let state = try folder("chosen-state")
        let daemon = try await LiveDaemon(library: library.url, stateDirectory: state)
        await #expect(try daemon.ctl("session", "new", "kept", "--width", "321").exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("sessions.json").path))
        await daemon.stop()
        try await daemon.start()
        await #expect(try daemon.ctl("session", "show", "kept").stdoutText.contains("321"), "restored from --state-dir")
        await daemon.stop()

        // No --state-dir: $XDG_STATE_HOME/pickerd.
        let stateHome = try folder("state-home")
        let socket = scratch.path("xdg-state.sock")
        let bare = try await BareDaemon(arguments: ["--library", library.url.path, "--socket", socket, "--no-shared-thumbnails"],
                                  environment: ["PATH": "/usr/bin:/bin", "HOME": scratch.url.path, "XDG_STATE_HOME": stateHome.path],
                                  logDirectory: scratch.url)
        _ = try await eventually { try await bareCtl(["--socket", socket, "ping"], environment: [:]).exitCode == 0 || !bare.isRunning }
        await #expect(try bareCtl(["--socket", socket, "session", "new", "x", "--width", "200"], environment: [:]).exitCode == 0)
        #expect(bare.stop() == 0)
        let saved = (try? String(contentsOf: stateHome.appendingPathComponent("pickerd/sessions.json"), encoding: .utf8)) ?? ""
        #expect(saved.contains("\"x\""), "sessions.json under $XDG_STATE_HOME/pickerd: \(saved)")
    }

    // MARK: log level

    @Test func debugLinesAppearOnlyAtLogLevelDebug() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
        var logs: [String: String] = [:]
        for level in ["debug", "info", "error"] {
            let daemon = try await LiveDaemon(library: library.url, extraEnvironment: ["PICKERD_LOG_LEVEL": level])
            await #expect(try daemon.ctl("albums").exitCode == 0)
            await daemon.stop()
            logs[level] = daemon.log
        }
        let debug = logs["debug"] ?? "", info = logs["info"] ?? "", error = logs["error"] ?? ""
        // Debug: each request with its duration.
        #expect(debug.contains("albums - ok in"), "\(debug)")
        #expect(!info.contains(" ok in ") && info.contains("listening on"), "\(info)")
        #expect(!error.contains(" ok in ") && !error.contains("listening on"), "\(error)")
    }

    // MARK: cache

    /// Writes `source`'s bytes over `target` in place (same inode) and puts back its exact mtime:
    /// the file's version (device, inode, size, mtime) is unchanged, so only a cache can still hold the old pixels.
    private func overwriteKeepingVersion(_ target: URL, with source: URL) throws {
        var before = stat()
        #expect(stat(target.path, &before) == 0)
        let bytes = try Data(contentsOf: source)
        let handle = try FileHandle(forWritingTo: target)
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: bytes)
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, target.path, &times, 0) == 0)
        var after = stat()
        #expect(stat(target.path, &after) == 0 && after.st_ino == before.st_ino && after.st_size == before.st_size
                && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_mtim.tv_sec == before.st_mtim.tv_sec)
    }

    /// The centre colour of get-image's picture, red or blue.
    private func servedColour(_ daemon: LiveDaemon, _ name: String) async throws -> [Int] {
        let out = daemon.directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(4)).png")
        let r = try await daemon.ctl("get-image", "-o", out.path)
        #expect(r.exitCode == 0, "\(r)")
        return try await ClaimImages.pixels(out, [[50, 40]]).first ?? []
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to make and read the pictures"))
    func repeatedGetImageIsServedFromTheCacheUnlessCacheMbIsZero() async throws {
        for cacheMB in ["256", "0"] {
            let library = try await TemporaryLibrary()
            let album = try folder("cache-\(cacheMB)")
            let photo = album.appendingPathComponent("p.png"), blue = album.appendingPathComponent("blue.png")
            try await ClaimImages.solid(photo, width: 100, height: 80, rgb: (255, 0, 0))
            try await ClaimImages.solid(blue, width: 100, height: 80, rgb: (0, 0, 255))  // uncompressed: the same byte count
            try FileManager.default.createDirectory(at: library.url.appendingPathComponent("A"), withIntermediateDirectories: true)
            let inLibrary = library.url.appendingPathComponent("A/p.png")
            try FileManager.default.copyItem(at: photo, to: inLibrary)
            let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--cache-mb", cacheMB])
            _ = try await daemon.ctl("session", "new", "--width", "100")
            _ = try await daemon.ctl("select-album", "A")
            _ = try await daemon.ctl("select-photo", "p.png")
            await #expect(try servedColour(daemon, "first") == [255, 0, 0])
            try overwriteKeepingVersion(inLibrary, with: blue)
            let second = try await servedColour(daemon, "second")
            if cacheMB == "0" {
                #expect(second == [0, 0, 255], "--cache-mb 0 keeps nothing: the file is decoded again")
            } else {
                #expect(second == [255, 0, 0], "the repeated request is served from the cache")
                let fresh = daemon.directory.appendingPathComponent("fresh.png")
                await #expect(try daemon.ctl("get-image", "--no-cache", "-o", fresh.path).exitCode == 0)
                await #expect(try ClaimImages.pixels(fresh, [[50, 40]]).first == [0, 0, 255], "--no-cache bypasses it")
            }
        }
    }
}
