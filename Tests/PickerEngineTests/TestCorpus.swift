import Foundation
import PickerEngine
import Testing
import PickerProtocol
import PickerTestSupport

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

/// The image corpus as `TestCorpusLocation` chooses it (`$PICKER_TESTDATA`, `../shared/testdata`,
/// `Tests/Fixtures`) with its manifest decoded.
enum TestCorpus {
    struct Located: Sendable {
        var root: URL
        var entries: [CorpusEntry]
        var isFullCorpus: Bool
    }

    static var packageRoot: URL { TestCorpusLocation.packageRoot }

    /// The corpus in use; nil only when its manifest cannot be read (`corpusIsFound` fails then).
    static let located: Located? = {
        let location = TestCorpusLocation.current
        let manifestURL = location.root.appendingPathComponent("manifest.json")
        do {
            let manifest = try JSONDecoder().decode(CorpusManifest.self, from: Data(contentsOf: manifestURL))
            return Located(root: location.root, entries: manifest.files, isFullCorpus: location.isFullCorpus)
        } catch {
            print("[TestCorpus] cannot read \(manifestURL.path): \(error)")
            return nil
        }
    }()

    static var entries: [CorpusEntry] { located?.entries ?? [] }

    /// Entries whose `expect` is one of `expects`. Records an issue when there is none for one of
    /// them (a moved or shrunken corpus must not turn a test into an empty loop), and for each
    /// entry whose file is missing; only entries whose file exists are returned.
    static func entries(expecting expects: Set<String>, sourceLocation: SourceLocation = #_sourceLocation)
        -> [CorpusEntry] {
        let wanted = entries.filter { expects.contains($0.expect) }
        for expect in expects.sorted() where !wanted.contains(where: { $0.expect == expect }) {
            Issue.record("the corpus has no file expected to \"\(expect)\"", sourceLocation: sourceLocation)
        }
        return wanted.filter { existingFile($0, sourceLocation: sourceLocation) }
    }

    /// Entries matching `include`; records an issue when there are none, and for each missing file.
    static func entries(where include: (CorpusEntry) -> Bool, describedAs what: String,
                        sourceLocation: SourceLocation = #_sourceLocation) -> [CorpusEntry] {
        let wanted = entries.filter(include)
        if wanted.isEmpty { Issue.record("the corpus has no \(what)", sourceLocation: sourceLocation) }
        return wanted.filter { existingFile($0, sourceLocation: sourceLocation) }
    }

    /// The manifest entry and bytes of one named file; records an issue when either is missing.
    static func required(_ path: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> (entry: CorpusEntry, bytes: [UInt8], format: PhotoFormat)? {
        guard let entry = entry(path: path) else {
            Issue.record("\(path) is not in the corpus manifest", sourceLocation: sourceLocation)
            return nil
        }
        guard let bytes = bytes(entry) else {
            Issue.record("\(path) is in the manifest but its file is missing", sourceLocation: sourceLocation)
            return nil
        }
        guard let format = format(of: bytes, path: path) else {
            Issue.record("\(path) is in no format pickerd reads", sourceLocation: sourceLocation)
            return nil
        }
        return (entry, bytes, format)
    }

    private static func existingFile(_ entry: CorpusEntry, sourceLocation: SourceLocation) -> Bool {
        guard bytes(entry) != nil else {
            Issue.record("\(entry.path) is in the manifest but its file is missing", sourceLocation: sourceLocation)
            return false
        }
        return true
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
    /// nil for anything else (a HEIF file without a HEIF brand).
    static func format(of bytes: [UInt8], path: String) -> PhotoFormat? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 { return .png }
        if bytes.count >= 12, bytes[0...3].elementsEqual("RIFF".utf8), bytes[8...11].elementsEqual("WEBP".utf8) {
            return .webp
        }
        if let sniffed = FormatSniffer.sniff(bytes), [.heic, .avif, .gif, .jxl, .raw].contains(sniffed) { return sniffed }
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "gif": return .gif
        default: return nil
        }
    }

    /// A header built from the manifest (what the header reader would report).
    static func header(for entry: CorpusEntry, format: PhotoFormat, honourOrientation: Bool = true) -> ImageHeader {
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

/// A picture a test made itself, through the validating initialiser; records an issue (and gives
/// one black pixel) when the bytes do not fit the sizes.
func syntheticPicture(_ width: Int, _ height: Int, _ channels: Int, _ pixels: [UInt8],
                      sourceLocation: SourceLocation = #_sourceLocation) -> PixelImage {
    guard let image = PixelImage(width: width, height: height, channels: channels, pixels: pixels) else {
        Issue.record("\(pixels.count) bytes do not make a \(width)x\(height)x\(channels) picture",
                     sourceLocation: sourceLocation)
        return PixelImage(pixelOf: .black)
    }
    return image
}
