import Foundation
import Testing

/// Issue 21 #1: a file whose header declares an absurd size (a 57-byte PNG of 2147483647²) once
/// killed the daemon (an `Int` overflow in the work estimate, SIGILL) on `get-image`, `thumbnails`
/// and merely selecting All Photos (prefetch). Put in the library of a real daemon, such files are
/// refused when their header is read: listed broken "too large" without a size (TooLargeListingTests), and the daemon keeps answering.
/// A doctored width/height in the index is dropped the same way.
@Suite(.timeLimit(.minutes(15))) struct HostileSizeTests {
    /// 57 bytes: IHDR 2147483647×2147483647, an empty IDAT, IEND (CRCs correct).
    static let hugePNG = "89504e470d0a1a0a0000000d494844527fffffff7fffffff08020000009bab9c31"
        + "000000004944415435af061e0000000049454e44ae426082"
    /// 30 bytes: a VP8X canvas of 16777216×16777216.
    static let hugeWebP = "524946461600000057454250565038580a00000000000000ffffffffffff"

    let library: TemporaryLibrary
    let good = TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg")

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(good, album: "A", as: "good.jpg")
        try Self.bytes(Self.hugePNG).write(to: library.url.appendingPathComponent("A/huge.png"))
        try Self.bytes(Self.hugeWebP).write(to: library.url.appendingPathComponent("A/huge.webp"))
    }

    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }

    private func names(_ daemon: LiveDaemon, session: String) async throws -> [String] {
        let r = try await daemon.ctl("photos", "--json", session: session)
        let list = (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return list.compactMap { $0["name"] as? String }.sorted()
    }

    /// Every way in that crashed before: select All Photos (prefetch), thumbnails, get-image on each.
    private func attack(_ daemon: LiveDaemon) async throws {
        await #expect(try daemon.ctl("session", "new", "h", "--width", "200").exitCode == 0)
        _ = try await daemon.ctl("select-album", "All Photos", session: "h")
        _ = try await daemon.ctl("thumbnails", "--json", session: "h")
        for name in ["huge.png", "huge.webp", "good.jpg"] {
            _ = try await daemon.ctl("select-photo", name, session: "h")
            _ = try await daemon.ctl("get-image", "-o", daemon.directory.appendingPathComponent("x.png").path, session: "h")
        }
        await pause(300_000)  // prefetch of the first page runs after the reply
        let started = Date()
        let ping = try await daemon.ctl("ping")
        #expect(ping.exitCode == 0, "the daemon died: \(ping)\n\(daemon.log)")
        #expect(Date().timeIntervalSince(started) < 1.0, "another client waited")
        await #expect(try daemon.ctl("session", "new", "other", "--width", "100").exitCode == 0)
    }

    @Test func aHugeDeclaredSizeIsRefusedWhenTheHeaderIsRead() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await attack(daemon)
        await #expect(try names(daemon, session: "h") == ["good.jpg", "huge.png", "huge.webp"])
    }

    @Test func aDoctoredIndexRowIsDroppedAndTheFileReadAgain() async throws {
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("A/huge.png"))
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("A/huge.webp"))
        let daemon = try await LiveDaemon(library: library.url)
        await #expect(daemon.stop() == 0)
        let folder = daemon.cacheHome.appendingPathComponent("pickerd")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sqlite") }
        try #require(files.count == 1, "\(files)")
        let index = folder.appendingPathComponent(files[0]).path
        let edit = try await runProcess("/usr/bin/python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            n = db.execute("UPDATE photos SET width = 2147483647, height = 2147483647").rowcount
            db.commit(); print(n)
            """, index])
        try #require(edit.exitCode == 0 && edit.stdoutText.hasPrefix("1"), "\(edit)")
        try await daemon.start()
        try await attack(daemon)
        await #expect(try names(daemon, session: "h") == ["good.jpg"])
        let state = try await daemon.ctl("photos", "--json", session: "h").stdoutText
        #expect(!state.contains("2147483647"), "the doctored size was served: \(state)")
    }
}
