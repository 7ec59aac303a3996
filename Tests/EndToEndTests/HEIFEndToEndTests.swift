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

    @Test func capabilitiesAdvertiseHEICAndAVIFAsInputOnly() throws {
        let corpus = try CorpusDaemon(entries: Array(Self.entries.prefix(1)), width: 64, height: 64)
        let caps = corpus.connection.capabilities
        #expect(caps.inputFormats.contains(.heic) && caps.inputFormats.contains(.avif), "\(caps.inputFormats)")
        #expect(!caps.outputFormats.map(\.rawValue).contains(PhotoFormat.heic.rawValue))
        #expect(!caps.outputFormats.map(\.rawValue).contains(PhotoFormat.avif.rawValue))
    }

    @Test func heifPhotosAreListedWithTheirFormatAndUprightSize() throws {
        let heif = Self.entries.filter { $0.expect == "decode (future)" }
        try #require(!heif.isEmpty, "the corpus has no HEIF file to decode")
        let corpus = try CorpusDaemon(entries: heif, width: 300, height: 300)
        for album in Set(heif.map(\.category)) {
            #expect(try corpus.daemon.ctl("select-album", album, session: corpus.session).exitCode == 0)
            let listing = try corpus.daemon.ctl("photos", "--json", session: corpus.session)
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

    @Test func avifIsShownUprightLikeItsReferenceAndIrotTurnsItExactlyOnce() throws {
        let avif = Self.entries.filter { $0.category == "avif" && $0.expect == "decode (future)" }
        let reference = TestEnvironment.corpus.root.appendingPathComponent("avif/reference-srgb.png")
        try #require(!avif.isEmpty && FileManager.default.fileExists(atPath: reference.path),
                     "the corpus has no AVIF file with avif/reference-srgb.png")
        let corpus = try CorpusDaemon(entries: avif, width: 400, height: 400)
        for e in avif {
            let img = try corpus.render(e).get()
            let display = try #require(e.display)
            let want = expectedFit(display.0, display.1, maxW: 400, maxH: 400)
            #expect(close((img.width, img.height), want), "\(e): \(img.width)x\(img.height) vs \(want)")
            let out = corpus.daemon.directory.appendingPathComponent("\(e.fileName).png")
            try Data(img.data).write(to: out)
            let turned = display.0 < display.1  // irot 90: the reference turned anticlockwise
            let args = ["compare", out.path, reference.path] + (turned ? ["--turn-left"] : [])
            let right = try ImageCheck.run(args, as: ImageCheck.Comparison.self)
            #expect(right.mad <= 4, "\(e): mean difference \(right.mad) from the reference")
            if turned {
                // Turned clockwise instead (three quarter turns anticlockwise): far off, so the test can tell.
                let clockwise = try ImageCheck.run(["compare", out.path, reference.path,
                                                    "--turn-left", "--turn-left", "--turn-left"],
                                                   as: ImageCheck.Comparison.self)
                #expect(clockwise.mad > 20, "\(e): looks the same turned the other way (\(clockwise.mad))")
            }
        }
    }
}
