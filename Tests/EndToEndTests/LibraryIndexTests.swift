import Foundation
import Testing

/// The library index under `$XDG_CACHE_HOME/pickerd/`: a restart serves it at once and then notices
/// what changed while the daemon was down; a crash leaves an index that loads; a broken one is set
/// aside and made again. Real daemons, restarted by signal.
@Suite(.timeLimit(.minutes(15))) struct LibraryIndexTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon
    let photo = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")

    init() async throws {
        library = try await TemporaryLibrary()
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try library.add(photo, album: "A", as: name) }
        daemon = try await LiveDaemon(library: library.url)
    }

    private var indexFolder: URL { daemon.cacheHome.appendingPathComponent("pickerd") }

    private func indexFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: indexFolder.path)) ?? []).sorted()
    }

    private func photoNames() async throws -> [String] {
        _ = try await daemon.ctl("session", "new", "i", "--width", "100")
        _ = try await daemon.ctl("select-album", "A", session: "i")
        let r = try await daemon.ctl("photos", "--json", session: "i")
        let list = (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return list.compactMap { $0["name"] as? String }.sorted()
    }

    @Test func aRestartLoadsTheIndexThenNoticesWhatChangedWhileDown() async throws {
        #expect(indexFiles().contains { $0.hasPrefix("index-") && $0.hasSuffix(".sqlite") }, "\(indexFiles())")
        await #expect(daemon.stop() == 0)
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("A/b.jpg"))
        try library.add(photo, album: "A", as: "d.jpg")
        try await daemon.start()
        #expect(daemon.log.contains("3 photos loaded from the index"), "\(daemon.log)")
        await #expect(try photoNames() == ["a.jpg", "c.jpg", "d.jpg"])
        #expect(daemon.log.contains("1 added, 1 removed"), "the check of the index found both: \(daemon.log)")
    }

    @Test func afterKillNineTheIndexStillLoads() async throws {
        try library.add(photo, album: "A", as: "e.jpg")
        // The daemon sees the new photo and writes it to the index (it logs the rescan once saved);
        // then it dies without a word.
        try await waitUntil("pickerd to log the rescan that added the new photo ('1 added')", within: 60, seen: { daemon.log }) {
            daemon.log.contains("1 added")
        }
        #expect(daemon.log.contains("1 added"), "\(daemon.log)")
        await #expect(daemon.stop(signal: SIGKILL) != 0)
        try await daemon.start()
        #expect(daemon.log.contains("4 photos loaded from the index"), "\(daemon.log)")
        await #expect(try photoNames() == ["a.jpg", "b.jpg", "c.jpg", "e.jpg"])
    }

    @Test func aBrokenIndexIsSetAsideAndMadeAgain() async throws {
        await #expect(daemon.stop() == 0)
        let files = indexFiles().filter { $0.hasSuffix(".sqlite") }
        try #require(files.count == 1, "\(indexFiles())")
        let index = indexFolder.appendingPathComponent(files[0])
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index.path + suffix) }
        try Data(repeating: 0x5a, count: 8192).write(to: index)
        try await daemon.start()
        #expect(daemon.log.contains("moved aside"), "\(daemon.log)")
        await #expect(try photoNames() == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(indexFiles().contains { $0.contains(".bad-") }, "the broken file is kept aside: \(indexFiles())")
        // And the new index serves the next start.
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        #expect(daemon.log.contains("3 photos loaded from the index"), "\(daemon.log)")
    }
}
