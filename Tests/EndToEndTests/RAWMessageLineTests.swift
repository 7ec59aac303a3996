import Foundation
import PickerProtocol
import Testing

/// A RAW's message line names its container, as the header walk found it: "RAW (DNG)".
@Suite struct RAWMessageLineTests {
    @Test func aSelectedRAWIsNamedWithItsContainer() async throws {
        let entries = TestEnvironment.manifest.filter { $0.path == "raw/photoprism_canon_eos_6d.dng" }
        try #require(entries.count == 1, "the corpus (or Tests/Fixtures) has no raw/photoprism_canon_eos_6d.dng")
        let corpus = try await CorpusDaemon(entries: entries, width: 300, height: 200)
        defer { corpus.daemon.stopBlocking() }
        await #expect(try corpus.daemon.ctl("select-album", "raw", session: corpus.session).exitCode == 0)
        await #expect(try corpus.daemon.ctl("select-photo", entries[0].fileName, session: corpus.session).exitCode == 0)
        let status = try await corpus.daemon.ctl("status", "--json", session: corpus.session)
        let object = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any]
        let message = object?["message"] as? String ?? ""
        #expect(message.hasSuffix(", RAW (DNG)"), "message line: \(message)")
        #expect(message.hasPrefix("1224x816 px"), "message line: \(message)")
    }
}
