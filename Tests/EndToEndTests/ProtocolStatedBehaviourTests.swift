import Foundation
import PickerClient
import PickerProtocol
import PickerSystem
import Testing

/// What docs/PROTOCOL.md states about edge cases (issue 16), checked on a live pickerd.
@Suite(.timeLimit(.minutes(15))) struct ProtocolStatedBehaviourTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon

    init() async throws {
        library = try await TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        // Landscape_2.jpg is not in the fixture subset: a copy of Landscape_1 stands in under its name.
        for n in 1...2 {
            try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A",
                            as: "Landscape_\(n).jpg")
        }
        try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_3.jpg"), album: "B")
        daemon = try await LiveDaemon(library: library.url)
    }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    private func errorCode(_ reply: Reply) -> ErrorCode? {
        if case .error(let e) = reply { return e.code }
        return nil
    }

    @Test func stepPhotoWithoutAnAlbumIsNothingSelected() async throws {
        await #expect(try daemon.ctl("session", "new", "n", "--width", "100").exitCode == 0)
        for step in ["next", "prev"] {
            let r = try await daemon.ctl(step, session: "n")
            #expect(r.exitCode == 3 && r.stderr.contains("no album selected"), "\(step): \(r)")
        }
        await #expect(try daemon.ctl("select-album", "A", session: "n").exitCode == 0)
        await #expect(try daemon.ctl("prev", session: "n").exitCode == 0)  // no current photo: the last
        let r = try await daemon.ctl("next", session: "n")
        #expect(r.exitCode == 4 && r.stderr.contains("last photo"), "\(r)")
    }

    @Test func selectorIndexZeroNamesNothing() async throws {
        await #expect(try daemon.ctl("session", "new", "z", "--width", "100").exitCode == 0)
        let conn = try RawConnection(socketPath: daemon.socketPath, clientName: "index-zero")
        let album = try conn.replies(to: try conn.sendInOneWrite([.selectAlbum(session: "z", .index(0))]))
        #expect(album.values.map(errorCode) == [.noSuchAlbum], "\(album)")
        await #expect(try daemon.ctl("select-album", "A", session: "z").exitCode == 0)
        let photo = try conn.replies(to: try conn.sendInOneWrite([.selectPhoto(session: "z", .index(0))]))
        #expect(photo.values.map(errorCode) == [.noSuchPhoto], "\(photo)")
    }

    @Test func aSessionWhoseAlbumLeftTheLibraryKeepsItsNameWithIndexZero() async throws {
        await #expect(try daemon.ctl("session", "new", "g", "--width", "100").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "B", session: "g").exitCode == 0)
        try FileManager.default.removeItem(at: library.url.appendingPathComponent("B"))
        var state: [String: Any] = [:]
        // The watcher settles for 300 ms after a change; wait for the new snapshot (a bound, not a timing check).
        try await waitUntil("the session's album to show as missing (album_index null)", within: 60, every: 50_000, seen: { "\(state)" }) {
            state = try await json(try daemon.ctl("status", "--json", session: "g"))
            return state["album_index"] is NSNull
        }
        #expect(state["album"] as? String == "B", "\(state)")
        #expect(state["album_index"] is NSNull && state["photo_count"] as? Int == 0, "\(state)")
        await #expect(try daemon.ctl("status", session: "g").stdoutText.contains("album:     B (missing)"))
        let photos = try await daemon.ctl("photos", session: "g")
        #expect(photos.exitCode == 4, "\(photos)")
        await #expect(try daemon.ctl("next", session: "g").exitCode == 4)
        await #expect(try daemon.ctl("select-album", "A", session: "g").exitCode == 0)
    }

    @Test func statusMessageGivesTheSizeInDecimalUnitsWithOneDecimal() async throws {
        await #expect(try daemon.ctl("session", "new", "m", "--width", "100").exitCode == 0)
        await #expect(try daemon.ctl("select-album", "A", session: "m").exitCode == 0)
        await #expect(try daemon.ctl("select-photo", "--index", "1", session: "m").exitCode == 0)
        let row = try await json(try daemon.ctl("photos", "--json", "--limit", "1", session: "m"))
        let first = (row["photos"] as? [[String: Any]])?.first ?? [:]
        let bytes = first["bytes"] as? Int ?? 0
        let width = first["width"] as? Int ?? 0, height = first["height"] as? Int ?? 0
        #expect(bytes >= 1000 && bytes < 999_950, "the corpus photo is in the kB range: \(bytes)")
        let tenths = Int((Double(bytes) / 100).rounded())
        let expected = "\(width)x\(height) px, \(tenths / 10).\(tenths % 10) kB, JPEG"
        let state = try await json(try daemon.ctl("status", "--json", session: "m"))
        #expect(state["message"] as? String == expected, "\(state)")
    }

    @Test func connectionsThatHaveNotSaidHelloCountTowardTheLimitUntilTheHandshakeTimeoutClosesThem() async throws {
        var fds: [Int32] = []
        defer { for fd in fds { FileDescriptorIO.close(fd) } }
        for _ in 0..<256 { fds.append(try UnixSocket.connect(path: daemon.socketPath)) }  // no hello on any
        let extra = try UnixSocket.connect(path: daemon.socketPath)
        defer { FileDescriptorIO.close(extra) }
        setReceiveTimeout(extra, seconds: 30)
        if let frame = try readFrame(extra), case .error(let e) = try Reply(frame: frame) {
            #expect(e.code == .tooBusy && frame.requestID == 0, "\(e)")
        } else {
            Issue.record("the 257th connection was not refused with too_busy")
        }
        // Past the 10 s allowed for hello, a connection that never spoke is told why and closed,
        // and its place is free again.
        sleep(11)
        let idle = fds[0]
        setReceiveTimeout(idle, seconds: 30)
        if let frame = try readFrame(idle), case .error(let e) = try Reply(frame: frame) {
            #expect(e.code == .handshakeRequired && frame.requestID == 0, "\(e)")
        } else {
            Issue.record("a connection without hello was not told handshake_required")
        }
        #expect(try readFrame(idle) == nil, "the connection is closed after the error")
        let next = try PickerConnection(socketPath: daemon.socketPath, clientName: "after-timeout")
        #expect(try next.call(.ping) == .pong(serverVersion: Release.serverVersion))
    }
}
