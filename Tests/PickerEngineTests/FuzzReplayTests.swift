import Foundation
import PickerEngine
import PickerProtocol
import Testing

/// Replays the checked-in regression corpus of the engine's fuzz targets (`fuzz/regressions/
/// <target>/`: the interesting seeds and every crash a target found) through the same entry
/// logic the libFuzzer targets run, without libFuzzer. A crash fails the run; a broken promise
/// (an untyped or unexpected error, a wrong size, a kept invalid session) fails the file.
@Suite struct FuzzReplayTests {
    @Test func imageDecodeCorpusReplaysWithoutFindings() throws {
        try replay("image", ImageFuzzEntry.run)
    }

    @Test func rawContainerCorpusReplaysWithoutFindings() throws {
        try replay("raw", RAWFuzzEntry.run)
    }

    @Test func libraryCorpusReplaysWithoutFindings() throws {
        try replay("library", LibraryFuzzEntry.run)
    }

    /// Structure-aware fuzzing in every test run: each library seed with its declared sizes, offsets
    /// and counts rewritten (`StructureMutator`, fixed seeds, so the same inputs each run), down the
    /// whole header → index → estimate → render path.
    @Test func structureMutationsOfTheLibrarySeedsKeepEveryPromise() throws {
        var runs = 0
        for file in try FuzzRegressionCorpus.files(of: "library") {
            let bytes = Array(try Data(contentsOf: file))
            for seed in UInt64(1)...12 {
                guard let mutated = StructureMutator.mutate(bytes, seed: seed * 0x9e37_79b9) else { continue }
                let findings = LibraryFuzzEntry.run(mutated)
                runs += 1
                #expect(findings.isEmpty, "\(file.lastPathComponent) mutated with seed \(seed): \(findings)")
            }
        }
        #expect(runs >= 100, "only \(runs) mutated inputs")
    }

    /// The mutator knows the fields issue 21's findings lived in, in each format.
    @Test func structureFieldsFindTheDeclaredSizesOfEachFormat() throws {
        func offsets(_ name: String) throws -> Set<Int> {
            let file = FuzzRegressionCorpus.root.appendingPathComponent("library").appendingPathComponent(name)
            return Set(StructureFields(Array(try Data(contentsOf: file))).fields.map(\.offset))
        }
        #expect(try offsets("png-3x2.png").isSuperset(of: [16, 20]), "PNG IHDR width, height")
        #expect(try offsets("webp-vp8x-2p24-squared.webp").isSuperset(of: [24, 27]), "WebP VP8X canvas")
        let sof = try offsets("fixture-exif-orientation-pillow_orientation_rectangle.jpg")
        #expect(sof.count > 10, "JPEG segment lengths and SOF: \(sof.sorted())")
        let icc = try offsets("jpeg-app2-icc-mpet-16.jpg")
        #expect(icc.contains(2 + 4 + 14 + 128), "the APP2 profile's tag count: \(icc.sorted())")
        #expect(try offsets("fixture-heic-libheif_rainbow-451x461.heic").count > 20, "HEIF boxes, ispe, iloc")
        #expect(try offsets("heic-grid-output-16384-ispe-512.heic").count > 20, "HEIF grid idat, iref")
    }

    @Test func pngTextCorpusReplaysWithoutFindings() throws {
        try replay("pngtext", PNGTextFuzzEntry.run)
    }

    @Test func decoderMessageCorpusReplaysWithoutFindings() throws {
        try replay("decodermsg", DecoderMessagesFuzzEntry.run)
    }

    @Test func sessionFileCorpusReplaysWithoutFindings() throws {
        try replay("sessions", SessionFileFuzzEntry.run)
    }

    @Test func sessionJournalCorpusReplaysWithoutFindings() throws {
        try replay("journal", SessionJournalFuzzEntry.run)
    }

    /// The 200 Mpx refusal is reached from declared sizes alone: these seeds must stay in the corpus.
    @Test func imageCorpusKeepsTheOverCapSeeds() throws {
        let names = try FuzzRegressionCorpus.files(of: "image").map(\.lastPathComponent)
        for seed in ["jpeg-declares-65535x65535.jpg", "png-declares-20000x20000.png", "webp-declares-16384x16384.webp",
                     "gif-screen-65535x65535.gif"] {
            #expect(names.contains(seed), "fuzz/regressions/image/\(seed) is missing")
        }
    }

    /// The replay must also drive successful decodes, not refusals only.
    @Test func imageCorpusHoldsPicturesThatDecode() throws {
        var decoded: [String] = []
        for file in try FuzzRegressionCorpus.files(of: "image") {
            let bytes = Array(try Data(contentsOf: file))
            do throws(PickerError) {
                let header = try ImageHeaderReader.read(bytes: bytes, name: file.lastPathComponent)
                _ = try ImageRenderer.fittedUpright(data: bytes, header: header, photoName: file.lastPathComponent,
                                                    fit: FitTarget(maxWidth: 32, maxHeight: 32),
                                                    maxPixels: ImageFuzzEntry.fuzzMaxPixels)
                decoded.append(file.lastPathComponent)
            } catch {
                continue
            }
        }
        #expect(decoded.count >= 8, "only \(decoded.count) files of fuzz/regressions/image decode: \(decoded)")
    }

    private func replay(_ target: String, _ entry: ([UInt8]) -> FuzzFindings) throws {
        let files = try FuzzRegressionCorpus.files(of: target)
        #expect(!files.isEmpty, "fuzz/regressions/\(target)/ has no files")
        for file in files {
            let findings = entry(Array(try Data(contentsOf: file)))
            #expect(findings.isEmpty, "fuzz/regressions/\(target)/\(file.lastPathComponent): \(findings)")
        }
    }
}

/// The files of `fuzz/regressions/<target>/`, found from this source file (no machine paths).
enum FuzzRegressionCorpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz").appendingPathComponent("regressions")

    static func files(of target: String) throws -> [URL] {
        let folder = root.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }
}
