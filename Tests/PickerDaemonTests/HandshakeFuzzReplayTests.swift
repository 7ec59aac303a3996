import Foundation
import PickerDaemon
import PickerEngine
import Testing

/// Replays `fuzz/regressions/handshake/` (seeds and any crash the libFuzzer target found)
/// through `HandshakeFuzzEntry`, the entry logic the `handshake` fuzz target runs, without
/// libFuzzer: `ConnectionState` must never dispatch before the hello reply, act after close,
/// send an unreadable reply or hold more than one frame.
@Suite struct HandshakeFuzzReplayTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/regressions/handshake")

    @Test func handshakeCorpusReplaysWithoutFindings() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(!names.isEmpty, "fuzz/regressions/handshake/ has no files")
        for name in names {
            let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))
            let findings = HandshakeFuzzEntry.run(bytes)
            #expect(findings.isEmpty, "fuzz/regressions/handshake/\(name): \(findings)")
        }
    }
}
