import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Issue 21 #1, the listing half: a photo whose header declares more pixels than the cap
/// (`--max-megapixels`, 200 by default) is refused when its header is read, yet listed: marked
/// broken "too large", without a size, so neither a listing nor the index holds the declared one.
/// Its get-image answers image_too_large naming it, and the daemon keeps serving.
@Suite(.timeLimit(.minutes(15))) struct TooLargeListingTests {
    static let small = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/pngsuite/basn2c08.png")

    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(Self.small, album: "A", as: "good.png")
        // The 57-byte PNG of 2147483647², and a header-only PNG of 20000² (400 Mpx: under the
        // 10,000 Mpx ceiling, over the default cap).
        try HostileSizeTests.bytes(HostileSizeTests.hugePNG).write(to: library.url.appendingPathComponent("A/huge.png"))
        try Self.pngHeader(width: 20_000, height: 20_000).write(to: library.url.appendingPathComponent("A/wide.png"))
    }

    /// Signature, IHDR (with its CRC), an empty IDAT and IEND: what a header reader sees of a real PNG.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", ihdr) + chunk("IDAT", [])
                    + chunk("IEND", []))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private func rows(_ daemon: LiveDaemon) async throws -> [String: [String: Any]] {
        let r = try await daemon.ctl("photos", "--json", session: "t")
        let list = (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Session "t" on album A (wide enough for the three grid cells on one page; kept across restarts).
    private func openSession(_ daemon: LiveDaemon) async throws {
        _ = try await daemon.ctl("session", "new", "t", "--width", "600", "--height", "400")
        #expect(try await daemon.ctl("select-album", "A", session: "t").exitCode == 0)
    }

    /// get-image of `name` over the protocol: the daemon's error, or nil when it rendered.
    private func getImageError(_ daemon: LiveDaemon, _ name: String) throws -> PickerError? {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "too-large-test")
        _ = try conn.call(.selectPhoto(session: "t", .name(name)))
        do throws(ClientError) {
            _ = try conn.call(.getImage(ImageRequest(session: "t", noCache: true)))
            return nil
        } catch {
            guard case .server(let e) = error else { throw error }
            return e
        }
    }

    private func expectListedTooLarge(_ row: [String: Any]?, cap: Int) {
        let reason = row?["broken"] as? String ?? ""
        #expect(reason.hasPrefix("too large: it declares") && reason.contains("over the \(cap) Mpx cap"), "\(row ?? [:])")
        #expect(row?["width"] as? Int == 0 && row?["height"] as? Int == 0, "no declared size in the listing: \(row ?? [:])")
    }

    private func expectStillServing(_ daemon: LiveDaemon) async throws {
        let started = Date()
        let ping = try await daemon.ctl("ping")
        #expect(ping.exitCode == 0, "the daemon died: \(ping)\n\(daemon.log)")
        #expect(Date().timeIntervalSince(started) < 1.0, "another client waited")
        #expect(try await daemon.ctl("session", "new", "other", "--width", "100").exitCode == 0)
    }

    /// The index's rows by path with their width (read from the stopped daemon's SQLite file).
    private func indexRows(_ daemon: LiveDaemon) async throws -> [String: Int] {
        let folder = daemon.cacheHome.appendingPathComponent("pickerd")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sqlite") }
        try #require(files.count == 1, "\(files)")
        let dump = try await runProcess("/usr/bin/python3", ["-c", """
            import sqlite3, sys
            for path, width in sqlite3.connect(sys.argv[1]).execute("SELECT path, width FROM photos"):
                print(f"{path}\\t{width}")
            """, folder.appendingPathComponent(files[0]).path])
        try #require(dump.exitCode == 0, "\(dump)")
        return Dictionary(dump.stdoutText.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t")
            return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
        }, uniquingKeysWith: { a, _ in a })
    }

    @Test func aPhotoOverTheCapIsListedBrokenTooLargeWithoutItsSize() async throws {
        let daemon = try await LiveDaemon(library: library.url)
        try await openSession(daemon)
        let listed = try await rows(daemon)
        #expect(listed.keys.sorted() == ["good.png", "huge.png", "wide.png"], "\(listed)")
        expectListedTooLarge(listed["huge.png"], cap: 200)
        expectListedTooLarge(listed["wide.png"], cap: 200)
        #expect(listed["good.png"]?["broken"] == nil && listed["good.png"]?["width"] as? Int == 32)
        let text = try await daemon.ctl("photos", session: "t").stdoutText
        #expect(text.split(separator: "\n").contains { $0.contains("huge.png") && $0.contains("broken: too large") }, "\(text)")

        let error = try getImageError(daemon, "huge.png")
        #expect(error?.code == .imageTooLarge && error?.message.contains("huge.png") == true, "\(String(describing: error))")
        let status = try JSONSerialization.jsonObject(with: try await daemon.ctl("status", "--json", session: "t").stdout) as? [String: Any]
        #expect((status?["message"] as? String)?.hasPrefix("cannot be shown: too large") == true, "\(status ?? [:])")
        let refused = try await daemon.ctl("toggle", "huge.png", session: "t")
        #expect(refused.exitCode == 1 && refused.stderr.contains("too large"), "\(refused)")
        let sheet = try JSONSerialization.jsonObject(with: try await daemon.ctl("thumbnails", "--json", session: "t").stdout) as? [String: Any]
        let cells = sheet?["cells"] as? [[String: Any]] ?? []
        #expect(cells.map { $0["broken"] as? Bool } == [false, true, true], "\(cells)")
        #expect(try getImageError(daemon, "good.png") == nil)
        try await expectStillServing(daemon)

        // The index keeps no row (so no size) for either; a restart lists them too large again.
        await #expect(daemon.stop() == 0)
        let index = try await indexRows(daemon)
        #expect(index.keys.sorted() == ["A/good.png"], "\(index)")
        try await daemon.start()
        try await openSession(daemon)
        await expectListedTooLarge(try rows(daemon)["huge.png"], cap: 200)
        await expectListedTooLarge(try rows(daemon)["wide.png"], cap: 200)
    }

    /// The header check uses the configured cap: at --max-megapixels 500 the 400 Mpx header is an
    /// ordinary listing; the index row it leaves is dropped by a daemon with the default cap.
    @Test func theCapIsTheConfiguredOne() async throws {
        let generous = try await LiveDaemon(library: library.url, extraArguments: ["--max-megapixels", "500"])
        try await openSession(generous)
        let listed = try await rows(generous)
        #expect(listed["wide.png"]?["broken"] == nil && listed["wide.png"]?["width"] as? Int == 20_000, "\(listed)")
        expectListedTooLarge(listed["huge.png"], cap: 500)
        await #expect(generous.stop() == 0)
        await #expect(try indexRows(generous)["A/wide.png"] == 20_000)

        let strict = try await LiveDaemon(library: library.url,
                                    extraEnvironment: ["XDG_CACHE_HOME": generous.cacheHome.path])
        try await openSession(strict)
        await expectListedTooLarge(try rows(strict)["wide.png"], cap: 200)
        try await expectStillServing(strict)
    }
}
