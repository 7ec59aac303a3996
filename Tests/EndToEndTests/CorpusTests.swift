import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Every file of the corpus manifest through a live daemon: a valid image or a clear error, never a crash.
@Suite(.serialized) struct CorpusTests {
    static let pane = (256, 256)

    @Test func everyManifestFileGetsAnImageOrAClearErrorAndTheDaemonKeepsServing() async throws {
        let entries = TestEnvironment.manifest
        #expect(!entries.isEmpty, "manifest not found")
        let corpus = try await CorpusDaemon(entries: entries, width: Self.pane.0, height: Self.pane.1)
        var listedByAlbum: [String: Set<String>] = [:]
        for category in Set(entries.map(\.category)) {
            listedByAlbum[category] = try corpus.photoNames(album: category)
        }
        var counts: [String: Int] = [:]
        for e in entries {
            let listed = listedByAlbum[e.category]?.contains(e.fileName) ?? false
            switch e.expect {
            // "decode (future)" (HEIC/AVIF) is "decode" now that pickerd reads those formats.
            case "decode", "decode-as-stored", "decode (future)":
                #expect(listed, "\(e) must be listed")
                guard listed, let display = e.display else { continue }
                let result = try corpus.render(e)
                switch result {
                case .success(let img):
                    let want = expectedFit(display.0, display.1, maxW: Self.pane.0, maxH: Self.pane.1)
                    #expect(close((img.width, img.height), want), "\(e): got \(img.width)x\(img.height), want \(want)")
                    #expect(pngSize(Data(img.data)).map { $0 == (img.width, img.height) } == true, "\(e): not a valid PNG of the stated size")
                    counts["decoded", default: 0] += 1
                case .failure(let err):
                    Issue.record("\(e) must decode, got \(err.code.name): \(err.message)")
                }
            case "reject", "limit", "partial-or-reject", "unsupported-or-decode", "preview-or-reject":
                guard listed else {
                    counts["not indexed", default: 0] += 1
                    continue
                }
                switch try corpus.render(e) {
                case .success(let img):
                    #expect(["partial-or-reject", "unsupported-or-decode", "preview-or-reject"].contains(e.expect),
                            "\(e) (\(e.expect)) must not display, got \(img.width)x\(img.height)")
                    // A RAW whose sensor data is gone may show its embedded preview, upright at the preview's shape.
                    if e.expect == "preview-or-reject", let preview = e.previewDisplay {
                        let want = expectedFit(preview.0, preview.1, maxW: Self.pane.0, maxH: Self.pane.1)
                        #expect(close((img.width, img.height), want), "\(e): preview \(img.width)x\(img.height), want \(want)")
                    }
                    #expect(isPNG(Data(img.data)))
                    counts["shown", default: 0] += 1
                case .failure(let err):
                    #expect(err.message.contains(e.fileName), "\(e): error must name the photo: \(err.message)")
                    if e.expect == "limit" {
                        #expect(err.code == .imageTooLarge, "\(e): \(err.code.name) \(err.message)")
                    } else {
                        #expect([.corruptImage, .unsupportedImage, .imageTooLarge].contains(err.code), "\(e): \(err.code.name)")
                    }
                    counts["refused", default: 0] += 1
                }
            default:
                Issue.record("unknown expectation \(e.expect) for \(e)")
            }
        }
        await #expect(try corpus.daemon.ctl("ping").exitCode == 0)
        print("corpus (\(TestEnvironment.corpus.isFull ? "full" : "fixtures")): \(entries.count) files, \(counts)")
    }
}

/// Orientation: every file comes out upright, judged by Pillow's exif_transpose of the same file.
@Suite(.serialized) struct OrientationTests {
    @Test func everyOrientationFileComesOutUpright() async throws {
        let entries = TestEnvironment.manifest.filter { $0.category == "exif-orientation" }
        #expect(!entries.isEmpty)
        let corpus = try await CorpusDaemon(entries: entries, width: 300, height: 300)
        let landscapeReference = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")
        let hopperReference = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/hopper_reference.webp")
        for e in entries {
            guard let display = e.display else { continue }
            let img = try corpus.render(e).get()
            let want = expectedFit(display.0, display.1, maxW: 300, maxH: 300)
            #expect(close((img.width, img.height), want), "\(e): \(img.width)x\(img.height) vs \(want)")
            let out = corpus.daemon.directory.appendingPathComponent("\(e.fileName).png")
            try Data(img.data).write(to: out)
            let asStored = e.expect == "decode-as-stored"
            let selfMad = try await ImageCheck.compare(out, e.url, upright: !asStored)
            #expect(selfMad < 6, "\(e): mean difference \(selfMad) from the upright original")
            if e.fileName.hasPrefix("Landscape_") {
                let mad = try await ImageCheck.compare(out, landscapeReference, upright: false)
                #expect(mad < 6, "\(e): differs from Landscape_1 by \(mad)")
            }
            if e.fileName.hasPrefix("hopper_orientation") {
                let mad = try await ImageCheck.compare(out, hopperReference, upright: false)
                #expect(mad < 6, "\(e): differs from the hopper reference by \(mad)")
            }
        }
    }
}

/// Camera photos fit the pane exactly and look like the photo.
@Suite(.serialized) struct CameraPhotoTests {
    @Test func cameraPhotosFitThePaneAndMatchAnIndependentDownscale() async throws {
        let entries = TestEnvironment.manifest.filter { $0.category == "camera-photos" }
        #expect(!entries.isEmpty)
        let corpus = try await CorpusDaemon(entries: entries, width: 600, height: 400)
        for e in entries {
            guard let display = e.display else { continue }
            let img = try corpus.render(e).get()
            let want = expectedFit(display.0, display.1, maxW: 600, maxH: 400)
            #expect(close((img.width, img.height), want), "\(e): \(img.width)x\(img.height) vs \(want)")
            let out = corpus.daemon.directory.appendingPathComponent("\(e.fileName).png")
            try Data(img.data).write(to: out)
            let c = try await ImageCheck.comparison(out, e.url, upright: true)
            #expect(c.mad < 4, "\(e): mean difference \(c.mad) from Pillow's Lanczos downscale")
            #expect(c.edge_mad < 10, "\(e): border rows/columns differ by \(c.edge_mad): dark or smeared edges")
        }
    }
}
