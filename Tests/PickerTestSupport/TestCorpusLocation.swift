import Foundation

/// Where the image corpus for the tests is, chosen the same way by every suite (and by
/// `scripts/testcorpus.py` for the Python tools): `$PICKER_TESTDATA`, then
/// `<package>/../shared/testdata`, then the subset checked in at `<package>/Tests/Fixtures`.
/// `PICKER_TESTDATA=none` forces the fixtures.
public struct TestCorpusLocation: Sendable {
    /// The folder holding `manifest.json`.
    public var root: URL
    /// Which rule chose it: `PICKER_TESTDATA`, `../shared/testdata` or `Tests/Fixtures`.
    public var source: String
    /// False for the checked-in fixture subset.
    public var isFullCorpus: Bool

    /// The package root, from this file's path (Tests/PickerTestSupport/TestCorpusLocation.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var fixtures: URL { packageRoot.appendingPathComponent("Tests/Fixtures") }

    /// The corpus in use; announced once on stdout as `[corpus] …` for the `make test` summary.
    public static let current: TestCorpusLocation = {
        let found = locate(environment: ProcessInfo.processInfo.environment)
        print("[corpus] \(found.source): \(found.root.path), \(found.fileCount) files in manifest.json")
        return found
    }()

    /// The first candidate that has a manifest.json, by the rule above.
    public static func locate(environment: [String: String]) -> TestCorpusLocation {
        let fm = FileManager.default
        if let value = environment["PICKER_TESTDATA"], !value.isEmpty, value != "none" {
            let url = URL(fileURLWithPath: value)
            if fm.fileExists(atPath: url.appendingPathComponent("manifest.json").path) {
                return TestCorpusLocation(root: url, source: "PICKER_TESTDATA", isFullCorpus: true)
            }
            print("[corpus] warning: PICKER_TESTDATA=\(value) has no manifest.json; using Tests/Fixtures")
        } else if environment["PICKER_TESTDATA"] != "none" {
            let shared = packageRoot.appendingPathComponent("../shared/testdata").standardizedFileURL
            if fm.fileExists(atPath: shared.appendingPathComponent("manifest.json").path) {
                return TestCorpusLocation(root: shared, source: "../shared/testdata", isFullCorpus: true)
            }
        }
        return TestCorpusLocation(root: fixtures, source: "Tests/Fixtures", isFullCorpus: false)
    }

    /// Number of records in the manifest (0 when it cannot be read).
    public var fileCount: Int {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let files = json["files"] as? [Any] else { return 0 }
        return files.count
    }
}
