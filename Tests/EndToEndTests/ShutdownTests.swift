import Foundation
import PickerProtocol
import Testing

/// README: on SIGTERM pickerd stops accepting, finishes or fails the requests in flight, saves
/// the sessions, removes the socket and exits 0.
@Suite(.timeLimit(.minutes(15))) struct ShutdownTests {
    @Test func sigtermWithRequestsInFlightAnswersOrClosesSavesSessionsRemovesSocketAndExitsZero() async throws {
        let library = try await TemporaryLibrary()
        for n in [1, 3, 6, 8] {
            try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_\(n).jpg"), album: "A")
        }
        let daemon = try await LiveDaemon(library: library.url)
        // Eight sessions set up and each asked for a large preview, all pipelined in one write:
        // requests of one session run in order, image work at most 4 at a time per connection,
        // so work is still queued when the signal comes. Sizes differ, so nothing is cached.
        let connection = try RawConnection(path: daemon.socketPath)
        try connection.handshake()
        var requests: [(UInt32, Request)] = []
        var previewWidth: [UInt32: Int] = [:]
        for k in 1...8 {
            let session = "busy\(k)", base = UInt32(10 * k)
            requests += [(base, .sessionNew(NewSession(name: session, width: 400, height: nil))),
                         (base + 1, .selectAlbum(session: session, .name("A"))),
                         (base + 2, .selectPhoto(session: session, .index(k % 4 + 1))),
                         (base + 3, .preview(PreviewRequest(session: session, width: 3000 + k, height: 3000))),
                         (base + 4, .ping)]
            previewWidth[base + 3] = 3000 + k
        }
        let sent = Set(requests.map(\.0))
        try connection.sendAll(requests)
        // A session created just before the signal must be there after a restart.
        await #expect(try daemon.ctl("session", "new", "last-minute", "--width", "222").exitCode == 0)
        kill(daemon.pid, SIGTERM)

        // Every request is answered or the connection closes: no hang (reads time out after 20 s).
        let (frames, end) = try connection.readUntilEnd()
        #expect(end == .closed, "the connection must close, not hang")
        var answered: Set<UInt32> = []
        for frame in frames {
            #expect(sent.contains(frame.requestID), "a reply to an id never sent: \(frame.requestID)")
            #expect(answered.insert(frame.requestID).inserted, "two replies to \(frame.requestID)")
            switch try Reply(frame: frame) {
            case .image(let image): #expect(image.width == previewWidth[frame.requestID], "\(frame.requestID)")
            case .pong, .session: break
            case .error(let e): print("reply \(frame.requestID): \(e)")
            default: Issue.record("unexpected reply \(frame.type) to \(frame.requestID)")
            }
        }
        print("SIGTERM with \(sent.count) requests in flight: \(answered.count) answered before the close, \(answered.filter { previewWidth[$0] != nil }.count) of 8 previews")

        await #expect(eventually(within: 60) { !daemon.isDaemonRunning }, "pickerd must exit after SIGTERM")
        await #expect(daemon.stop() == 0, "exit code; log:\n\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "the socket is removed")
        #expect(daemon.log.contains("shutting down") && daemon.log.contains("stopped"), "\(daemon.log)")

        try await daemon.start()
        let restored = try await daemon.ctl("session", "show", "last-minute", "--json")
        #expect(restored.exitCode == 0 && restored.stdoutText.contains("222"), "\(restored)")
        
    }
}

extension LiveDaemon {
    /// Whether the daemon process is still running, without reaping it (so `stop()` still gets its
    /// exit code): an exited child stays a zombie, state `Z` in /proc/PID/stat, until waited for.
    var isDaemonRunning: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].hasPrefix(") Z")
    }
}
