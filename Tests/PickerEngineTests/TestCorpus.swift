import Foundation
import PickerEngine
import Testing
import PickerProtocol

/// One record of the corpus manifest (`manifest.json`, `files[]`).
struct CorpusEntry: Decodable, Sendable, CustomStringConvertible {
    var path: String
    var category: String
    var expect: String
    var width: Int?
    var height: Int?
    var exif_orientation: Int?
    var display: [Int]?

    var description: String { path }
    var fileName: String { (path as NSString).lastPathComponent }
}

extension CorpusEntry: CustomTestStringConvertible {
    var testDescription: String { path }
}

private struct CorpusManifest: Decodable {
    var files: [CorpusEntry]
}

/// Finds the image corpus: `$PICKER_TESTDATA`, else `<package>/../shared/testdata`,
/// else `/work/shared/testdata`, else the subset in `<package>/Tests/Fixtures`.
enum TestCorpus {
    struct Located: Sendable {
        var root: URL
        var entries: [CorpusEntry]
        var isFullCorpus: Bool
    }

    /// The package root, from this file's path (Tests/PickerEngineTests/TestCorpus.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The corpus in use, or nil when none is found (tests that need it are skipped).
    static let located: Located? = locate()

    private static func locate() -> Located? {
        var candidates: [(URL, Bool, String)] = []
        // PICKER_TESTDATA, when set, is the only full-corpus candidate (set it to "none" to test the fixtures alone).
        if let env = ProcessInfo.processInfo.environment["PICKER_TESTDATA"], !env.isEmpty {
            candidates.append((URL(fileURLWithPath: env), true, "PICKER_TESTDATA"))
        } else {
            candidates.append((packageRoot.appendingPathComponent("../shared/testdata").standardizedFileURL, true,
                               "../shared/testdata"))
            candidates.append((URL(fileURLWithPath: "/work/shared/testdata"), true, "/work/shared/testdata"))
        }
        candidates.append((packageRoot.appendingPathComponent("Tests/Fixtures"), false, "Tests/Fixtures"))
        for (root, full, label) in candidates {
            let manifestURL = root.appendingPathComponent("manifest.json")
            guard let data = try? Data(contentsOf: manifestURL) else { continue }
            do {
                let manifest = try JSONDecoder().decode(CorpusManifest.self, from: data)
                let kind = full ? "corpus" : "FIXTURE SUBSET only (full corpus not found, its other files are skipped)"
                print("[TestCorpus] using \(kind) from \(label): \(root.path), \(manifest.files.count) files")
                return Located(root: root, entries: manifest.files, isFullCorpus: full)
            } catch {
                print("[TestCorpus] cannot read \(manifestURL.path): \(error)")
            }
        }
        print("[TestCorpus] no corpus found (PICKER_TESTDATA, ../shared/testdata, /work/shared/testdata, Tests/Fixtures): corpus tests are skipped")
        return nil
    }

    static var entries: [CorpusEntry] { located?.entries ?? [] }

    /// Entries whose `expect` is one of `expects` and whose file exists.
    static func entries(expecting expects: Set<String>) -> [CorpusEntry] {
        entries.filter { expects.contains($0.expect) && bytes($0) != nil }
    }

    /// The file's bytes, or nil when missing.
    static func bytes(_ entry: CorpusEntry) -> [UInt8]? {
        bytes(path: entry.path)
    }

    static func bytes(path: String) -> [UInt8]? {
        guard let root = located?.root,
              let data = try? Data(contentsOf: root.appendingPathComponent(path)) else { return nil }
        return [UInt8](data)
    }

    static func entry(path: String) -> CorpusEntry? {
        entries.first { $0.path == path }
    }

    /// The format by magic bytes, else by extension (so broken files still reach a decoder);
    /// nil for anything else (HEIC).
    static func format(of bytes: [UInt8], path: String) -> ImageFormat? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 { return .png }
        if bytes.count >= 12, bytes[0...3].elementsEqual("RIFF".utf8), bytes[8...11].elementsEqual("WEBP".utf8) {
            return .webp
        }
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        default: return nil
        }
    }

    /// A header built from the manifest (what the header reader would report).
    static func header(for entry: CorpusEntry, format: ImageFormat, honourOrientation: Bool = true) -> ImageHeader {
        ImageHeader(format: format, storedWidth: entry.width ?? 0, storedHeight: entry.height ?? 0,
                    orientation: honourOrientation ? Orientation(exifValue: entry.exif_orientation ?? 1) : .up)
    }
}

/// Mean absolute difference per channel (0–255) of two same-sized RGB(A) images,
/// comparing the first three channels.
func meanAbsoluteDifference(_ a: PixelImage, _ b: PixelImage) -> Double? {
    guard a.width == b.width, a.height == b.height else { return nil }
    var total = 0
    let n = a.width * a.height
    for i in 0..<n {
        for c in 0..<3 {
            total += abs(Int(a.pixels[i * a.channels + c]) - Int(b.pixels[i * b.channels + c]))
        }
    }
    return Double(total) / Double(n * 3)
}
