import Foundation
import Testing
import PickerProtocol
@testable import PickerEngine
import PickerTestSupport

/// The freedesktop.org shared thumbnail cache: names, URIs, file format, validity, failures.
@Suite struct SharedThumbnailStoreTests {
    // MARK: - Helpers

    /// A fresh cache home under the temp folder, removed afterwards.
    func withCacheHome(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "pickerd-thumbs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// A gradient so a decode can be told from a blank.
    func gradient(_ w: Int, _ h: Int, channels: Int = 3) -> PixelImage {
        var bytes = [UInt8](repeating: 0, count: w * h * channels)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * channels
                bytes[i] = UInt8(x * 255 / max(1, w - 1))
                bytes[i + 1] = UInt8(y * 255 / max(1, h - 1))
                bytes[i + 2] = 77
                if channels == 4 { bytes[i + 3] = 200 }
            }
        }
        return syntheticPicture(w, h, channels, bytes)
    }

    func mode(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_mode) & 0o777
    }

    func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    /// Whether /usr/bin/python3 has what a reference check needs: `probe` exits 77 when it is missing.
    /// Decided before the test runs, so a missing module shows as a skip; inside the test any
    /// non-zero exit is a failure (a reference that cannot read our thumbnail must not pass).
    static func pythonCan(_ probe: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
              let result = try? runChild("/usr/bin/python3", ["-c", probe]) else { return false }
        return result.exitCode != 77
    }

    static let hasPillow = pythonCan("import sys\ntry:\n from PIL import Image\nexcept ImportError:\n sys.exit(77)")
    static let hasGLib = pythonCan("import ctypes, sys\ntry:\n ctypes.CDLL('libglib-2.0.so.0')\nexcept OSError:\n sys.exit(77)")

    struct PythonFailed: Error, CustomStringConvertible {
        var result: ChildResult
        var description: String { "/usr/bin/python3 failed: \(result)" }
    }

    /// Runs /usr/bin/python3 with `script` and arguments; its stdout. Throws on any non-zero exit.
    func python(_ script: String, _ arguments: [String]) throws -> String {
        let result = try runChild("/usr/bin/python3", ["-c", script] + arguments)
        guard result.exitCode == 0 else { throw PythonFailed(result: result) }
        return result.stdout
    }

    // MARK: - Names

    @Test func md5OfTheStandardsExampleURIMatchesTheStandard() {
        #expect(SharedThumbnailStore.md5Hex("file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697")
        #expect(SharedThumbnailStore.md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func thumbnailPathIsTheHashOfTheURIInTheFlavorFolder() {
        let store = SharedThumbnailStore(cacheHome: "/home/jens/.cache/")
        #expect(store.thumbnailPath(forAbsolutePath: "/home/jens/photos/me.png", flavor: .normal)
                == "/home/jens/.cache/thumbnails/normal/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(store.thumbnailPath(forAbsolutePath: "/home/jens/photos/me.png", flavor: .xxLarge)
                == "/home/jens/.cache/thumbnails/xx-large/c6ee772d9e49320e97ec29a7eb5b1697.png")
        #expect(store.failureDirectory == "/home/jens/.cache/thumbnails/fail/pickerd-0.1.0")
    }

    @Test func plainPathsBecomeFileURIsWithThreeSlashes() {
        #expect(SharedThumbnailStore.fileURI(forAbsolutePath: "/home/jens/photos/me.png") == "file:///home/jens/photos/me.png")
    }

    @Test func spacesPercentAndReservedCharactersAreEscaped() {
        #expect(SharedThumbnailStore.fileURI(forAbsolutePath: "/a b/100%.jpg") == "file:///a%20b/100%25.jpg")
        #expect(SharedThumbnailStore.fileURI(forAbsolutePath: "/x/#?;[]{}|^`\"<>\\")
                == "file:///x/%23%3F%3B%5B%5D%7B%7D%7C%5E%60%22%3C%3E%5C")
    }

    @Test func unicodeIsEscapedAsUpperCaseHexOfItsUTF8() {
        #expect(SharedThumbnailStore.fileURI(forAbsolutePath: "/ü/été.jpg") == "file:///%C3%BC/%C3%A9t%C3%A9.jpg")
        #expect(SharedThumbnailStore.fileURI(forAbsolutePath: "/写真/🌅.png") == "file:///%E5%86%99%E7%9C%9F/%F0%9F%8C%85.png")
    }

    @Test func rfc2396PathCharactersStayAsGLibLeavesThem() {
        // "IMG (1).jpg" must hash like Nautilus's thumbnail of it.
        #expect(SharedThumbnailStore.fileURI(forAbsolutePath: "/p/IMG (1)!$&'*+,=:@~_-.jpg")
                == "file:///p/IMG%20(1)!$&'*+,=:@~_-.jpg")
    }

    @Test(.enabled(if: hasGLib, "needs /usr/bin/python3 and libglib-2.0.so.0 (apt-get install libglib2.0-0)"))
    func urisMatchGLibsFilenameToURI() throws {
        let paths = ["/home/u/Pictures/IMG (1).jpg", "/a b/100%/c#d?e;f.png", "/ü/été/写真 🌅.webp",
                     "/x/!$&'()*+,;=:@[]{}|^`\"<>\\~_-.jpg", "/tab\there/new\nline"]
        let script = """
        import ctypes, sys
        try:
            g = ctypes.CDLL('libglib-2.0.so.0')
        except OSError:
            sys.exit(77)
        g.g_filename_to_uri.restype = ctypes.c_void_p
        g.g_filename_to_uri.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
        for p in sys.argv[1:]:
            r = g.g_filename_to_uri(p.encode('utf-8'), None, None)
            print(ctypes.string_at(r).decode('ascii'))
        """
        let output = try python(script, paths)
        let expected = output.split(separator: "\n").map(String.init)
        #expect(expected.count == paths.count)
        for (path, glib) in zip(paths, expected) {
            #expect(SharedThumbnailStore.fileURI(forAbsolutePath: path) == glib, "\(path)")
        }
    }

    @Test func failureFolderNameIsOneSafePathComponent() {
        #expect(SharedThumbnailStore.failureFolderName("pickerd 0.1.0") == "pickerd-0.1.0")
        #expect(SharedThumbnailStore.failureFolderName("a/b c") == "a-b-c")
        #expect(SharedThumbnailStore.failureFolderName("") == "pickerd")
    }

    @Test func cacheHomeComesFromXDGCacheHomeElseHome() {
        #expect(SharedThumbnailStore.defaultCacheHome(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c")
        #expect(SharedThumbnailStore.defaultCacheHome(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"]) == "/h/.cache")
        #expect(SharedThumbnailStore.defaultCacheHome(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h/"]) == "/h/.cache")
        #expect(SharedThumbnailStore.defaultCacheHome(environment: [:]) == nil)
    }

    // MARK: - Store and lookup

    @Test func storedThumbnailIsFoundAgainWithTheSpecsKeysAndModes() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/photos/Holiday 2024/IMG (1).jpg"
            let thumb = gradient(128, 96)
            store.store(thumb, absolutePath: photo, mtime: 1_700_000_123, fileSize: 4_567_890,
                        flavor: .normal, originalSize: PixelSize(width: 4000, height: 3000))

            let path = store.thumbnailPath(forAbsolutePath: photo, flavor: .normal)
            #expect(path.hasPrefix(home + "/thumbnails/normal/"))
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(mode(path) == 0o600)
            #expect(mode(home + "/thumbnails") == 0o700)
            #expect(mode(home + "/thumbnails/normal") == 0o700)
            // Only the thumbnail is left in the folder: no temporary files.
            #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/thumbnails/normal").count == 1)

            let text = try #require(PNGTextChunks.read(bytes(path)))
            #expect(text["Thumb::URI"] == "file:///photos/Holiday%202024/IMG%20(1).jpg")
            #expect(text["Thumb::MTime"] == "1700000123")
            #expect(text["Thumb::Size"] == "4567890")
            #expect(text["Thumb::Image::Width"] == "4000")
            #expect(text["Thumb::Image::Height"] == "3000")
            #expect(text["Software"] == "pickerd 0.1.0")

            let found = try #require(store.lookup(absolutePath: photo, mtime: 1_700_000_123, flavor: .normal))
            #expect(found == thumb)
            // Another flavor is another file.
            #expect(store.lookup(absolutePath: photo, mtime: 1_700_000_123, flavor: .large) == nil)
        }
    }

    @Test(.enabled(if: hasPillow, "needs /usr/bin/python3 with Pillow (apt-get install python3-pil)"))
    func pillowReadsTheSameTextChunksAndSize() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/photos/été/DSC 0001.jpg"
            store.store(gradient(256, 171, channels: 4), absolutePath: photo, mtime: 42, fileSize: 1000,
                        flavor: .large, originalSize: PixelSize(width: 6000, height: 4000))
            let path = store.thumbnailPath(forAbsolutePath: photo, flavor: .large)
            let script = """
            import sys, json
            try:
                from PIL import Image
            except ImportError:
                sys.exit(77)
            im = Image.open(sys.argv[1])
            im.load()
            print(json.dumps({"text": im.text, "size": list(im.size), "mode": im.mode,
                              "interlaced": bool(im.info.get("interlace", 0))}))
            """
            let output = try python(script, [path])
            struct Report: Decodable { var text: [String: String]; var size: [Int]; var mode: String; var interlaced: Bool }
            let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
            #expect(report.size == [256, 171])
            #expect(report.mode == "RGBA")
            #expect(!report.interlaced)
            #expect(report.text["Thumb::URI"] == "file:///photos/%C3%A9t%C3%A9/DSC%200001.jpg")
            #expect(report.text["Thumb::MTime"] == "42")
            #expect(report.text["Thumb::Size"] == "1000")
            #expect(report.text["Thumb::Image::Width"] == "6000")
            #expect(report.text["Thumb::Image::Height"] == "4000")
            #expect(report.text["Software"] == "pickerd 0.1.0")
        }
    }

    @Test(.enabled(if: hasPillow, "needs /usr/bin/python3 with Pillow (apt-get install python3-pil)"))
    func aThumbnailWrittenByAnotherProgramIsFound() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/home/u/Pictures/cat.jpg"
            let path = store.thumbnailPath(forAbsolutePath: photo, flavor: .normal)
            let script = """
            import sys
            try:
                from PIL import Image, PngImagePlugin
            except ImportError:
                sys.exit(77)
            info = PngImagePlugin.PngInfo()
            info.add_text("Thumb::URI", sys.argv[2])
            info.add_text("Thumb::MTime", "1234")
            import os
            os.makedirs(os.path.dirname(sys.argv[1]), mode=0o700, exist_ok=True)
            Image.new("RGB", (100, 75), (10, 200, 30)).save(sys.argv[1], pnginfo=info)
            """
            _ = try python(script, [path, "file:///home/u/Pictures/cat.jpg"])
            let found = try #require(store.lookup(absolutePath: photo, mtime: 1234, flavor: .normal))
            #expect(found.width == 100 && found.height == 75)
            #expect(Array(found.pixels[0..<3]) == [10, 200, 30])
        }
    }

    @Test func aStaleMTimeIsAMissAndTheFileIsKept() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/p/a.jpg"
            store.store(gradient(64, 64), absolutePath: photo, mtime: 1000, fileSize: 1, flavor: .normal)
            #expect(store.lookup(absolutePath: photo, mtime: 1000, flavor: .normal) != nil)
            #expect(store.lookup(absolutePath: photo, mtime: 1001, flavor: .normal) == nil)
            #expect(FileManager.default.fileExists(atPath: store.thumbnailPath(forAbsolutePath: photo, flavor: .normal)))
            // Regenerated for the new mtime, it is valid again (and replaced in place).
            store.store(gradient(64, 64), absolutePath: photo, mtime: 1001, fileSize: 1, flavor: .normal)
            #expect(store.lookup(absolutePath: photo, mtime: 1001, flavor: .normal) != nil)
            #expect(store.lookup(absolutePath: photo, mtime: 1000, flavor: .normal) == nil)
        }
    }

    @Test func aThumbnailForAnotherURIIsAMiss() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            store.store(gradient(32, 32), absolutePath: "/p/a.jpg", mtime: 5, fileSize: 1, flavor: .normal)
            // Pretend an MD5 collision: b.jpg's name holding a.jpg's thumbnail.
            let a = store.thumbnailPath(forAbsolutePath: "/p/a.jpg", flavor: .normal)
            let b = store.thumbnailPath(forAbsolutePath: "/p/b.jpg", flavor: .normal)
            try FileManager.default.copyItem(atPath: a, toPath: b)
            #expect(store.lookup(absolutePath: "/p/b.jpg", mtime: 5, flavor: .normal) == nil)
        }
    }

    @Test(arguments: [0, 7, 20, 40, 60, 100, -9])
    func aTruncatedThumbnailIsAMissWithoutThrowing(keep: Int) throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/p/t.jpg"
            store.store(gradient(128, 128), absolutePath: photo, mtime: 9, fileSize: 1, flavor: .normal)
            let path = store.thumbnailPath(forAbsolutePath: photo, flavor: .normal)
            let whole = bytes(path)
            let cut = keep < 0 ? whole.count + keep : min(keep, whole.count)
            try Data(whole[0..<cut]).write(to: URL(fileURLWithPath: path))
            #expect(store.lookup(absolutePath: photo, mtime: 9, flavor: .normal) == nil)
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func corruptImageDataOrGarbageIsAMiss() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/p/c.jpg"
            store.store(gradient(128, 128), absolutePath: photo, mtime: 9, fileSize: 1, flavor: .normal)
            let path = store.thumbnailPath(forAbsolutePath: photo, flavor: .normal)
            var damaged = bytes(path)
            // Flip bytes near the end (inside IDAT): the text chunks still match, the pixels do not decode.
            for i in (damaged.count - 40)..<(damaged.count - 20) { damaged[i] ^= 0x5A }
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            #expect(store.lookup(absolutePath: photo, mtime: 9, flavor: .normal) == nil)

            try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: path))
            #expect(store.lookup(absolutePath: photo, mtime: 9, flavor: .normal) == nil)

            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(store.lookup(absolutePath: photo, mtime: 9, flavor: .normal) == nil)
        }
    }

    @Test func aThumbnailLargerThanItsFlavorIsAMiss() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let photo = "/p/big.jpg"
            // Written as "large" (fits), then moved into "normal" where 200 px does not fit.
            store.store(gradient(200, 100), absolutePath: photo, mtime: 3, fileSize: 1, flavor: .large)
            try FileManager.default.createDirectory(atPath: home + "/thumbnails/normal", withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: store.thumbnailPath(forAbsolutePath: photo, flavor: .large),
                                             toPath: store.thumbnailPath(forAbsolutePath: photo, flavor: .normal))
            #expect(store.lookup(absolutePath: photo, mtime: 3, flavor: .normal) == nil)
        }
    }

    @Test func anImageTooBigForTheFlavorIsNotStored() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            store.store(gradient(129, 10), absolutePath: "/p/x.jpg", mtime: 1, fileSize: 1, flavor: .normal)
            #expect(!FileManager.default.fileExists(atPath: store.thumbnailPath(forAbsolutePath: "/p/x.jpg", flavor: .normal)))
        }
    }

    @Test func anUnwritableCacheIsSwallowed() throws {
        try withCacheHome { home in
            // A file where the thumbnails folder should be: every write fails, nothing throws.
            try Data().write(to: URL(fileURLWithPath: home + "/thumbnails"))
            let store = SharedThumbnailStore(cacheHome: home)
            store.store(gradient(8, 8), absolutePath: "/p/y.jpg", mtime: 1, fileSize: 1, flavor: .normal)
            store.store(gradient(8, 8), absolutePath: "/p/z.jpg", mtime: 1, fileSize: 1, flavor: .normal)
            store.recordFailure(absolutePath: "/p/y.jpg", mtime: 1)
            #expect(store.lookup(absolutePath: "/p/y.jpg", mtime: 1, flavor: .normal) == nil)
            #expect(!store.hasFailure(absolutePath: "/p/y.jpg", mtime: 1))
        }
    }

    @Test func concurrentStoresOfOneThumbnailLeaveOneValidFile() async throws {
        let home = NSTemporaryDirectory() + "pickerd-thumbs-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = SharedThumbnailStore(cacheHome: home)
        let image = gradient(128, 85)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask { store.store(image, absolutePath: "/p/same.jpg", mtime: 77, fileSize: 5, flavor: .normal) }
            }
        }
        #expect(store.lookup(absolutePath: "/p/same.jpg", mtime: 77, flavor: .normal) == image)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/thumbnails/normal").count == 1)
    }

    // MARK: - Failures

    @Test func failureRecordsMatchTheirMTimeAndLiveInTheAppFolder() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home, software: "pickerd 0.1.0")
            let photo = "/p/broken file.jpg"
            #expect(!store.hasFailure(absolutePath: photo, mtime: 50))
            store.recordFailure(absolutePath: photo, mtime: 50)
            #expect(store.hasFailure(absolutePath: photo, mtime: 50))
            #expect(!store.hasFailure(absolutePath: photo, mtime: 51))
            #expect(!store.hasFailure(absolutePath: "/p/other.jpg", mtime: 50))

            let path = store.failurePath(forAbsolutePath: photo)
            #expect(path == home + "/thumbnails/fail/pickerd-0.1.0/" + SharedThumbnailStore.md5Hex("file:///p/broken%20file.jpg") + ".png")
            #expect(mode(path) == 0o600)
            #expect(mode(home + "/thumbnails/fail") == 0o700)
            #expect(mode(home + "/thumbnails/fail/pickerd-0.1.0") == 0o700)
            let text = try #require(PNGTextChunks.read(bytes(path)))
            #expect(text["Thumb::URI"] == "file:///p/broken%20file.jpg")
            #expect(text["Thumb::MTime"] == "50")
            // A failure record is not a thumbnail.
            #expect(store.lookup(absolutePath: photo, mtime: 50, flavor: .normal) == nil)
            // Another program version has its own records.
            #expect(!SharedThumbnailStore(cacheHome: home, software: "pickerd 0.2.0").hasFailure(absolutePath: photo, mtime: 50))
        }
    }

    @Test func filesInsideTheThumbnailFolderAreNeverThumbnailed() throws {
        try withCacheHome { home in
            let store = SharedThumbnailStore(cacheHome: home)
            let inside = home + "/thumbnails/normal/0123.png"
            store.store(gradient(8, 8), absolutePath: inside, mtime: 1, fileSize: 1, flavor: .normal)
            #expect(!FileManager.default.fileExists(atPath: store.thumbnailPath(forAbsolutePath: inside, flavor: .normal)))
        }
    }

    // MARK: - Text chunk reader

    @Test func textReaderStopsAtImageDataAndSkipsDamagedChunks() throws {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typeBytes = Array(type.utf8)
            let length = UInt32(body.count)
            let crc = CRC32.of(typeBytes + body, from: 0, to: typeBytes.count + body.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + typeBytes + body
                + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        var damaged = chunk("tEXt", Array("Bad\0value".utf8))
        damaged[damaged.count - 1] ^= 1
        let png = PNGTextChunks.signature
            + chunk("IHDR", [UInt8](repeating: 0, count: 13))
            + chunk("tEXt", Array("Thumb::URI\0file:///a".utf8))
            + chunk("tEXt", [0x4B, 0, 0xE9]) // "K" = "é" in Latin-1
            + chunk("iTXt", Array("U\0\0\0en\0\0caf\u{E9}".utf8))
            + chunk("iTXt", Array("Z\0\u{1}\0\0\0xx".utf8)) // compressed: skipped
            + damaged
            + chunk("tEXt", Array("Thumb::URI\0second wins not".utf8))
            + chunk("IDAT", [1, 2, 3])
            + chunk("tEXt", Array("After\0idat".utf8))
        let text = try #require(PNGTextChunks.read(png))
        #expect(text == ["Thumb::URI": "file:///a", "K": "é", "U": "café"])
        #expect(PNGTextChunks.read(Array("GIF89a".utf8)) == nil)
        // A length running past the end stops the walk instead of reading out of bounds.
        #expect(PNGTextChunks.read(PNGTextChunks.signature + [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXtabcd".utf8)) == [:])
    }

    // MARK: - Flavors

    @Test func flavorFoldersAreTheStandardsNames() {
        #expect(ThumbnailFlavor.allCases.map(\.directoryName) == ["normal", "large", "x-large", "xx-large"])
        #expect(ThumbnailFlavor.allCases.map(\.rawValue) == [128, 256, 512, 1024])
    }

    @Test func thumbnailSizeFitsTheBoxAndNeverUpscales() {
        #expect(ThumbnailFlavor.normal.thumbnailSize(displayWidth: 4000, displayHeight: 3000) == PixelSize(width: 128, height: 96))
        #expect(ThumbnailFlavor.normal.thumbnailSize(displayWidth: 3000, displayHeight: 4000) == PixelSize(width: 96, height: 128))
        #expect(ThumbnailFlavor.large.thumbnailSize(displayWidth: 100, displayHeight: 50) == PixelSize(width: 100, height: 50))
    }

    @Test func smallestFlavorCoveringAGridCell() {
        // 4:3 photo, 100 px cells: normal gives 128x96 (too short), large 256x192.
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 100, displayWidth: 4000, displayHeight: 3000) == .large)
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 96, displayWidth: 4000, displayHeight: 3000) == .normal)
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 100, displayWidth: 1000, displayHeight: 1000) == .normal)
        // Panorama 8000x1000: normal is 128x16, large 256x32, x-large 512x64, xx-large 1024x128.
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 100, displayWidth: 8000, displayHeight: 1000) == .xxLarge)
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 200, displayWidth: 8000, displayHeight: 1000) == nil)
        // A photo smaller than the cell is never covered: the caller scales it itself.
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 100, displayWidth: 80, displayHeight: 80) == nil)
        #expect(ThumbnailFlavor.smallest(coveringShortSide: 300, displayWidth: 6000, displayHeight: 4000) == .xLarge)
    }
}
