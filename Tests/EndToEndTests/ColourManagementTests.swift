import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Colour management through a live daemon: every corpus file with a `colour_reference` (an
/// embedded Adobe RGB, ProPhoto or red↔green-swapping ICC profile, or plain CMYK) is sent by
/// `get-image` as sRGB PNG and judged by Pillow against its sRGB reference, per channel.
@Suite(.serialized) struct ColourManagementTests {
    /// The corpus README's bound: mean absolute difference per channel, 0…255.
    static let tolerance = 2.5

    static var entries: [ManifestEntry] { TestEnvironment.manifest.filter { $0.colourReference != nil } }

    struct Comparison: Decodable { var channel_mad: [Double]; var width: Int; var height: Int }

    static func compare(_ output: URL, _ reference: URL) async throws -> Comparison {
        try await ImageCheck.run(["compare", output.path, reference.path], as: Comparison.self)
    }

    /// Renders `entry` at a `pane`-pixel square pane into a PNG file in the daemon's folder.
    static func render(_ corpus: CorpusDaemon, _ entry: ManifestEntry) throws -> URL {
        let image = try corpus.render(entry).get()
        let out = corpus.daemon.directory.appendingPathComponent("\(entry.category)-\(entry.fileName).png")
        try Data(image.data).write(to: out)
        return out
    }

    @Test(.enabled(if: !entries.isEmpty, "the corpus in use has no file with a colour_reference"),
          arguments: [600, 160])
    func everyColourFileIsShownLikeItsSRGBReference(pane: Int) async throws {
        let corpus = try await CorpusDaemon(entries: Self.entries, width: pane, height: pane)
        for entry in Self.entries {
            let reference = TestEnvironment.corpus.root.appendingPathComponent(entry.colourReference ?? "")
            let out = try Self.render(corpus, entry)
            let result = try await Self.compare(out, reference)
            #expect(result.channel_mad.count == 3 && result.channel_mad.allSatisfy { $0 <= Self.tolerance },
                    "\(entry) at \(pane) px: mean difference per channel \(result.channel_mad) from \(reference.lastPathComponent)")
            #expect(max(result.width, result.height) == min(pane, max(entry.width, entry.height)),
                    "\(entry): \(result.width)x\(result.height) at a \(pane) px pane")
        }
    }

    /// The check can tell: shown unmanaged (Pillow reads the pixels as they are stored), the
    /// red↔green file is far from its reference. Without this the test above could pass vacuously.
    @Test(.enabled(if: entries.contains { $0.fileName.hasPrefix("swapped-red-green") },
                   "the corpus in use has no swapped-red-green file"))
    func unmanagedPixelsOfTheSwappedProfileFileAreFarFromTheReference() async throws {
        let entry = try #require(Self.entries.first { $0.fileName.hasPrefix("swapped-red-green") })
        let reference = TestEnvironment.corpus.root.appendingPathComponent(entry.colourReference ?? "")
        let result = try await Self.compare(entry.url, reference)
        #expect(result.channel_mad.contains { $0 > 4 * Self.tolerance }, "\(result.channel_mad)")
    }

    static let madeFrom = TestEnvironment.manifest.first { $0.category == "camera-photos" && $0.path.hasSuffix(".jpg") }

    /// Writes `source` again with `profile` (a file path or `garbage`) embedded.
    static func profiled(_ source: URL, as name: String, profile: String, in folder: URL) async throws -> URL {
        let out = folder.appendingPathComponent(name)
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_profiled.py").path
        let r = try await runProcess(TestEnvironment.python, [script, source.path, out.path, profile])
        try #require(r.exitCode == 0, "make_profiled.py: \(r.stderr)")
        return out
    }

    /// A profile Little CMS refuses is ignored: the picture is shown as its stored pixels
    /// (sRGB), not refused, in every format that can carry one.
    @Test(.enabled(if: madeFrom != nil, "the corpus in use has no camera JPEG"))
    func aGarbageProfileIsIgnoredAndThePictureStillShows() async throws {
        let source = try #require(Self.madeFrom)
        let work = try await TemporaryLibrary()
        let small = work.url.appendingPathComponent("source.png")
        let shrink = try await runProcess(TestEnvironment.python, ["-c", """
            import sys; from PIL import Image, ImageOps
            im = ImageOps.exif_transpose(Image.open(sys.argv[1])).convert("RGB"); im.thumbnail((800, 800)); im.save(sys.argv[2])
            """, source.url.path, small.path])
        try #require(shrink.exitCode == 0, "\(shrink.stderr)")
        let album = work.url.appendingPathComponent("garbage")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        var names: [String] = []
        for ext in ["jpg", "png", "webp"] {
            _ = try await Self.profiled(small, as: "garbage.\(ext)", profile: "garbage", in: album)
            names.append("garbage.\(ext)")
        }
        let daemon = try await LiveDaemon(library: work.url)
        await #expect(try daemon.ctl("library", "--wait").exitCode == 0)
        await #expect(try daemon.ctl("session", "new", "g", "--width", "400", "--height", "400", session: "g").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "garbage", session: "g").exitCode == 0)
        for name in names {
            await #expect(try daemon.ctl("select-photo", name, session: "g").exitCode == 0)
            let out = daemon.directory.appendingPathComponent("\(name).png")
            let r = try await daemon.ctl("-o", out.path, "get-image", "--format", "png", session: "g")
            #expect(r.exitCode == 0, "\(name): \(r.stderr)")
            guard r.exitCode == 0 else { continue }
            let result = try await Self.compare(out, small)
            #expect(result.channel_mad.allSatisfy { $0 <= Self.tolerance }, "\(name): \(result.channel_mad)")
        }
    }

    /// Renders `name` of `album` in a library at `library` at a 400 px pane into a PNG file.
    static func renderWithPickerctl(_ daemon: LiveDaemon, album: String, _ name: String) async throws -> URL? {
        await #expect(try daemon.ctl("library", "--wait").exitCode == 0)
        _ = try await daemon.ctl("session", "new", "c", "--width", "400", "--height", "400", "--exist-ok", session: "c")
        await #expect(try daemon.ctl("select-album", album, session: "c").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", name, session: "c").exitCode == 0)
        let out = daemon.directory.appendingPathComponent("\(name).png")
        let r = try await daemon.ctl("-o", out.path, "get-image", "--format", "png", session: "c")
        #expect(r.exitCode == 0, "\(name): \(r.stderr)")
        return r.exitCode == 0 ? out : nil
    }

    /// An sRGB reference picture of the corpus in use (the fixtures have one too).
    static let srgbReference = TestEnvironment.manifest.first { $0.path.hasPrefix("colour/reference-") }
    static let proPhotoProfile = "/usr/share/color/icc/colord/ProPhotoRGB.icc"
    static let heifEncoder = ["/usr/bin/heif-enc", "/usr/local/bin/heif-enc"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A HEIC whose `colr` box is a `prof` ICC profile (heif-enc copies the PNG's iCCP: ProPhoto
    /// RGB, made from an sRGB reference by Pillow ImageCms) is shown like that reference.
    @Test(.enabled(if: srgbReference != nil && heifEncoder != nil && FileManager.default.fileExists(atPath: proPhotoProfile),
                   "needs an sRGB colour reference, heif-enc (libheif-examples) and colord-data's ProPhotoRGB.icc"))
    func aHEICWithAnICCProfileIsShownLikeItsSRGBReference() async throws {
        let reference = try #require(Self.srgbReference), encoder = try #require(Self.heifEncoder)
        let work = try await TemporaryLibrary()
        let album = work.url.appendingPathComponent("heif")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let png = work.url.appendingPathComponent("prophoto.png")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_profiled.py").path
        let converted = try await runProcess(TestEnvironment.python, [script, "--convert", reference.url.path, png.path,
                                                                Self.proPhotoProfile])
        try #require(converted.exitCode == 0, "make_profiled.py: \(converted.stderr)")
        let heic = album.appendingPathComponent("prophoto.heic")
        let made = try await runProcess(encoder, ["-q", "90", png.path, "-o", heic.path])
        try #require(made.exitCode == 0, "heif-enc: \(made.stderr)")
        let daemon = try await LiveDaemon(library: work.url)
        let out = try await #require(try Self.renderWithPickerctl(daemon, album: "heif", "prophoto.heic"))
        let result = try await Self.compare(out, reference.url)
        #expect(result.channel_mad.allSatisfy { $0 <= Self.tolerance }, "prophoto.heic: \(result.channel_mad)")
    }

    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// An Adobe (inverted) CMYK JPEG that carries a CMYK profile is converted through it, and
    /// looks like Little CMS's own conversion (Pillow ImageCms) of the same file.
    @Test(.enabled(if: srgbReference != nil && FileManager.default.fileExists(atPath: cmykProfile),
                   "needs an sRGB colour reference and Ghostscript's CMYK profile (libgs-common)"))
    func aCMYKJPEGWithACMYKProfileIsConvertedThroughIt() async throws {
        let source = try #require(Self.srgbReference)
        let work = try await TemporaryLibrary()
        let album = work.url.appendingPathComponent("cmyk")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let jpeg = album.appendingPathComponent("profiled.jpg")
        let reference = work.url.appendingPathComponent("reference.png")
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/make_profiled.py").path
        let made = try await runProcess(TestEnvironment.python, [script, "--cmyk", source.url.path, jpeg.path,
                                                           Self.cmykProfile, reference.path])
        try #require(made.exitCode == 0, "make_profiled.py: \(made.stderr)")
        let daemon = try await LiveDaemon(library: work.url)
        let out = try await #require(try Self.renderWithPickerctl(daemon, album: "cmyk", "profiled.jpg"))
        let result = try await Self.compare(out, reference)
        #expect(result.channel_mad.allSatisfy { $0 <= Self.tolerance }, "profiled.jpg: \(result.channel_mad)")
    }
}
