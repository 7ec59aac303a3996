import Foundation
import PickerTestSupport

/// Where the built binaries, the repository and the image corpus are.
enum TestEnvironment {
    /// The package root, from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `PICKER_BIN_DIR` (set by `make test`), else `.build/debug`.
    static let binDirectory: URL = {
        if let dir = ProcessInfo.processInfo.environment["PICKER_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    static var pickerd: URL { binDirectory.appendingPathComponent("pickerd") }
    static var pickerctl: URL { binDirectory.appendingPathComponent("pickerctl") }

    /// The corpus as `TestCorpusLocation` chooses it: `PICKER_TESTDATA` (`none` forces the fixtures),
    /// else `../shared/testdata`, else the subset in `Tests/Fixtures`.
    static let corpus: (root: URL, isFull: Bool) = {
        let location = TestCorpusLocation.current
        return (location.root, location.isFullCorpus)
    }()

    /// Manifest records of the corpus in use.
    static let manifest: [ManifestEntry] = {
        let url = corpus.root.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let files = json["files"] as? [[String: Any]] else {
            print("warning: cannot read \(url.path)")
            return []
        }
        return files.compactMap(ManifestEntry.init)
    }()

    /// Absolute path of the Python with Pillow used as an independent reference.
    static let python = FileManager.default.fileExists(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
}

/// One file of the corpus manifest.
struct ManifestEntry: Sendable, CustomStringConvertible {
    var path: String
    var category: String
    var expect: String
    var width: Int
    var height: Int
    var orientation: Int?
    var display: (Int, Int)?
    /// The sRGB picture a colour-managed file must look like (manifest `colour_reference`).
    var colourReference: String?
    /// A RAW file's largest embedded JPEG preview, upright (manifest `preview.display`).
    var previewDisplay: (Int, Int)?

    init?(_ dict: [String: Any]) {
        guard let path = dict["path"] as? String, let category = dict["category"] as? String,
              let expect = dict["expect"] as? String else { return nil }
        self.path = path
        self.category = category
        self.expect = expect
        width = dict["width"] as? Int ?? 0
        height = dict["height"] as? Int ?? 0
        orientation = dict["exif_orientation"] as? Int
        if let d = dict["display"] as? [Int], d.count == 2 { display = (d[0], d[1]) } else { display = nil }
        colourReference = dict["colour_reference"] as? String
        if let p = (dict["preview"] as? [String: Any])?["display"] as? [Int], p.count == 2 {
            previewDisplay = (p[0], p[1])
        }
    }

    var fileName: String { (path as NSString).lastPathComponent }
    var url: URL { TestEnvironment.corpus.root.appendingPathComponent(path) }
    var description: String { path }
}
