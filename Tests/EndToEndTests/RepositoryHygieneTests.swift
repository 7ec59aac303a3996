import Foundation
import Testing

/// What the review of issue 16 asked to stay true of the tree itself.
@Suite struct RepositoryHygieneTests {
    static let root = TestEnvironment.packageRoot
    static let isGitCheckout = FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)

    @Test(.enabled(if: isGitCheckout && findExecutable("git") != nil, "needs a git checkout"))
    func noCompiledPythonIsTrackedAndPycacheIsIgnored() async throws {
        let tracked = try await runProcess(findExecutable("git") ?? "git", ["-C", Self.root.path, "ls-files"])
        #expect(tracked.exitCode == 0, "\(tracked)")
        let pyc = tracked.stdoutText.split(separator: "\n").filter { $0.hasSuffix(".pyc") || $0.contains("__pycache__/") }
        #expect(pyc.isEmpty, "tracked: \(pyc)")
        let ignore = (try? String(contentsOf: Self.root.appendingPathComponent(".gitignore"), encoding: .utf8)) ?? ""
        #expect(ignore.split(separator: "\n").contains("__pycache__/"))
    }

    /// The pane range 16…8192 and the cell range 16…1024 are declared once, in PickerProtocol's
    /// `ProtocolLimits`; the engine and pickerctl read them from there.
    @Test func paneAndCellRangesAreDeclaredOnce() async throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        var declarations: [String: [String]] = [:]
        for file in files {
            let text = (try? String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for range in ["16...8192", "16...1024", "16..<8193", "16..<1025"] where text.contains(range) {
                declarations[range, default: []].append(file)
            }
        }
        #expect(declarations["16...8192"] == ["PickerProtocol/ProtocolLimits.swift"], "\(declarations)")
        #expect(declarations["16...1024"] == ["PickerProtocol/ProtocolLimits.swift"], "\(declarations)")
        #expect(declarations["16..<8193"] == nil && declarations["16..<1025"] == nil)
    }
}
