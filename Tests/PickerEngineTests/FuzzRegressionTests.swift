import Foundation
import PickerProtocol
import PickerTestSupport
import Testing

/// Every input in `Tests/Regressions/` (found by the fuzz targets in `fuzz/`) goes through the
/// paths that once failed on it: header reader, decoder, renderer, and for protocol inputs the
/// frame and message decoders. None may crash; known files must end as recorded below.
/// Each input runs alone in a child process (`picker-test-probe regression FILE`), so the
/// VmPeak it reports is that input's, not the parallel suite's.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Regressions")

    /// Expected outcome of the decoder per file: "ok" = decodes, else the error code's name.
    static let expected: [String: String] = [
        "png-text-chunk-length-2gb.png": "\(ErrorCode.corruptImage)",
    ]

    /// The single allocation any regression input may cause, in virtual memory (VmPeak).
    static let maxVirtualGrowth = 1 << 30

    static var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// What the probe reports for one input (see Tests/PickerTestProbe/RegressionReplay.swift).
    struct Report: Decodable {
        var target: String
        var vmPeakGrowth: Int
        var header: String?
        var headerMessage: String?
        var decode: String?
        var decodeMessage: String?
    }

    @Test(.timeLimit(.minutes(15)))  // a hang guard: its children queue behind the pool like the end-to-end tests (issue 20)
    func regressionInputsAreRefusedCleanlyWithBoundedMemory() throws {
        #expect(TestProbe.isBuilt, "\(TestProbe.path) is missing: run `swift build` first")
        let files = Self.files
        #expect(!files.isEmpty, "no files in \(Self.directory.path)")
        for url in files {
            let name = url.lastPathComponent
            let run = try runChild(TestProbe.path, ["regression", url.path])
            guard run.exitCode == 0 else {
                Issue.record("\(name): the probe did not finish cleanly (a crash is 128 + signal): \(run)")
                continue
            }
            let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
            #expect(report.vmPeakGrowth >= 0, "\(name): VmPeak not readable")
            #expect(report.vmPeakGrowth < Self.maxVirtualGrowth, "\(name) raised VmPeak by \(report.vmPeakGrowth >> 20) MiB")
            if report.target == "frame" || report.target == "message" { continue }
            if let message = report.headerMessage {
                #expect(message.contains(name), "\(name): the header error must name the photo: \(message)")
            }
            if let message = report.decodeMessage {
                #expect(message.contains(name), "\(name): the error must name the photo: \(message)")
            }
            if let expectation = Self.expected[name] {
                #expect(report.decode == expectation, "\(name): \(report.decode ?? "-") \(report.decodeMessage ?? "")")
            }
        }
    }
}
