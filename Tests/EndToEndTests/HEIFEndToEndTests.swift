import Foundation
import PickerClient
import PickerProtocol
import Testing

/// HEIC and AVIF through a live daemon: advertised as input formats, listed with format HEIC/AVIF at
/// their upright size, and shown upright by `get-image` (judged by Pillow against the sRGB reference).
@Suite(.serialized) struct HEIFEndToEndTests {
    /// The corpus's HEIF files that must display (manifest `decode (future)`), and the AVIF reference.
    static var entries: [ManifestEntry] {
        TestEnvironment.manifest.filter {
            ($0.category == "heic" || $0.category == "avif") && ($0.expect == "decode (future)" || $0.expect == "decode")
        }
    }

    @Test func capabilitiesAdvertiseHEICAndAVIFAsInputOnly() async throws {
        let corpus = try await CorpusDaemon(entries: Array(Self.entries.prefix(1)), width: 64, height: 64)
        let caps = corpus.connection.capabilities
        #expect(caps.inputFormats.contains(.heic) && caps.inputFormats.contains(.avif), "\(caps.inputFormats)")
        #expect(!caps.outputFormats.map(\.rawValue).contains(PhotoFormat.heic.rawValue))
        #expect(!caps.outputFormats.map(\.rawValue).contains(PhotoFormat.avif.rawValue))
    }

    @Test func heifPhotosAreListedWithTheirFormatAndUprightSize() async throws {
        let heif = Self.entries.filter { $0.expect == "decode (future)" }
        try #require(!heif.isEmpty, "the corpus has no HEIF file to decode")
        let corpus = try await CorpusDaemon(entries: heif, width: 300, height: 300)
        for album in Set(heif.map(\.category)) {
            await #expect(try corpus.daemon.ctl("select-album", album, session: corpus.session).exitCode == 0)
            let listing = try await corpus.daemon.ctl("photos", "--json", session: corpus.session)
            try #require(listing.exitCode == 0, "\(listing.stderr)")
            let page = try JSONSerialization.jsonObject(with: listing.stdout) as? [String: Any]
            let rows = try #require(page?["photos"] as? [[String: Any]],
                                    "photos --json: \(String(decoding: listing.stdout, as: UTF8.self))")
            for e in heif where e.category == album {
                let row = try #require(rows.first { $0["name"] as? String == e.fileName }, "\(e) is not listed")
                #expect(row["format"] as? String == (album == "avif" ? "AVIF" : "HEIC"), "\(e): \(row)")
                let display = try #require(e.display)
                #expect(row["width"] as? Int == display.0 && row["height"] as? Int == display.1, "\(e): \(row)")
            }
        }
    }

    static let reference = TestEnvironment.corpus.root.appendingPathComponent("avif/reference-srgb.png")

    /// Renders one corpus AVIF through the daemon into a PNG file; checks its fitted size.
    func render(_ corpus: CorpusDaemon, _ path: String, pane: Int) throws -> URL {
        let e = try #require(Self.entries.first { $0.path == path }, "\(path) is not in the corpus")
        let img = try corpus.render(e).get()
        let display = try #require(e.display)
        let want = expectedFit(display.0, display.1, maxW: pane, maxH: pane)
        #expect(close((img.width, img.height), want), "\(e): \(img.width)x\(img.height) vs \(want)")
        let out = corpus.daemon.directory.appendingPathComponent("\(e.fileName).png")
        try Data(img.data).write(to: out)
        return out
    }

    func avifDaemon(pane: Int) async throws -> CorpusDaemon {
        let avif = Self.entries.filter { $0.category == "avif" && $0.expect == "decode (future)" }
        try #require(avif.count == 2, "the corpus has not both avif/photo.avif and avif/photo-irot90.avif")
        return try await CorpusDaemon(entries: avif, width: pane, height: pane)
    }

    @Test func avifWithIrot90IsShownTurnedAnticlockwiseExactlyOnce() async throws {
        let corpus = try await avifDaemon(pane: 400)
        let plain = try render(corpus, "avif/photo.avif", pane: 400)
        let turned = try render(corpus, "avif/photo-irot90.avif", pane: 400)
        let right = try await ImageCheck.run(["compare", turned.path, plain.path, "--turn-left"], as: ImageCheck.Comparison.self)
        #expect(right.mad <= 4, "irot 90 output differs by \(right.mad) from the plain output turned anticlockwise")
        // Turned clockwise instead (three quarter turns anticlockwise): far off, so the test can tell.
        let wrong = try await ImageCheck.run(["compare", turned.path, plain.path, "--turn-left", "--turn-left", "--turn-left"],
                                       as: ImageCheck.Comparison.self)
        #expect(wrong.mad > 20, "looks the same turned the other way (\(wrong.mad))")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: reference.path),
                   "needs the full corpus (avif/reference-srgb.png)"))
    func avifIsShownLikeItsSRGBReference() async throws {
        let corpus = try await avifDaemon(pane: 400)
        let plain = try render(corpus, "avif/photo.avif", pane: 400)
        let turned = try render(corpus, "avif/photo-irot90.avif", pane: 400)
        let a = try await ImageCheck.run(["compare", plain.path, Self.reference.path], as: ImageCheck.Comparison.self)
        #expect(a.mad <= 4, "photo.avif: mean difference \(a.mad) from the reference")
        let b = try await ImageCheck.run(["compare", turned.path, Self.reference.path, "--turn-left"],
                                   as: ImageCheck.Comparison.self)
        #expect(b.mad <= 4, "photo-irot90.avif: mean difference \(b.mad) from the reference turned anticlockwise")
    }
}
