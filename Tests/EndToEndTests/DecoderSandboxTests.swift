import Foundation
import PickerProtocol
import Testing

/// Issue 23: every decode runs in a sandboxed worker process. A real daemon (debug build) with
/// `PICKERD_TEST_MISBEHAVE=1`: photos named `misbehave-<kind>.*` make their worker crash, call
/// socket(2), spin, open a path or answer with unusable pixels (test-only job kinds, compiled into
/// debug builds only).
@Suite(.timeLimit(.minutes(10))) struct DecoderSandboxTests {
    static let smallPhoto = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/pngsuite/basn2c08.png")
    static let workers = 2

    /// The decoder workers of `daemon`: its child processes.
    static func workerPIDs(of daemon: LiveDaemon) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0) }
        }.sorted()
    }

    /// `/proc/PID/status` lines, by name.
    static func status(of pid: pid_t) -> [String: String] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    /// A daemon with album "hostile" holding `misbehave-<kind>.png` and album "small" a good photo;
    /// sessions "bomb" and "other" look at one each.
    func daemon(misbehaving kind: String, extra: [String] = []) async throws -> (LiveDaemon, TemporaryLibrary) {
        let library = try await TemporaryLibrary()
        try library.add(Self.smallPhoto, album: "hostile", as: "misbehave-\(kind).png")
        try library.add(Self.smallPhoto, album: "small")
        let daemon = try await LiveDaemon(library: library.url,
                                          extraArguments: ["--workers", "\(Self.workers)", "--no-prefetch",
                                                           "--no-shared-thumbnails"] + extra,
                                          extraEnvironment: ["PICKERD_TEST_MISBEHAVE": "1"])
        for (session, album) in [("bomb", "hostile"), ("other", "small")] {
            _ = try await daemon.ctl("session", "new", session, "--width", "64", "--height", "48")
            _ = try await daemon.ctl("select-album", album, session: session)
            _ = try await daemon.ctl("select-photo", "--index", "1", session: session)
        }
        return (daemon, library)
    }

    /// What a decoding library prints on its own (libjxl: `./lib/jxl/frame_header.cc:309: JXL_FAILURE: …`,
    /// a few lines for every file it refuses) stays out of the daemon's log: the worker's stderr is
    /// /dev/null, its own lines go to a copy of the daemon's stderr. The client still gets the reason.
    @Test func aLibrarysOwnChatterStaysOutOfTheDaemonsLog() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/jxl/oiio_truncated.jxl"),
                        album: "broken")
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch", "--no-shared-thumbnails"])
        defer { daemon.stopBlocking() }
        _ = try await daemon.ctl("session", "new", "s", "--width", "64", "--height", "48")
        _ = try await daemon.ctl("select-album", "broken", session: "s")
        _ = try await daemon.ctl("select-photo", "--index", "1", session: "s")
        let refused = try await daemon.ctl("get-image", "-o", "/dev/null", session: "s")
        #expect(refused.exitCode == 1 && refused.stderr.contains("oiio_truncated.jxl: corrupt JPEG XL data"), "\(refused)")
        #expect(!daemon.log.contains("JXL_FAILURE") && !daemon.log.contains("lib/jxl/"), "\(daemon.log.suffix(1500))")
        _ = library
    }

    /// The nice value of a process (field 19 of /proc/PID/stat, counted after the name's closing parenthesis).
    static func nice(of pid: pid_t) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }

    @Test func everyWorkerRunsUnderSeccompWithNoNewPrivileges() async throws {
        let (daemon, library) = try await daemon(misbehaving: "none")
        defer { daemon.stopBlocking() }
        try await waitUntil("\(Self.workers) decoder workers", within: 30, seen: { daemon.log }) {
            Self.workerPIDs(of: daemon).count == Self.workers
        }
        for pid in Self.workerPIDs(of: daemon) {
            let fields = Self.status(of: pid)
            #expect(fields["Seccomp"] == "2", "worker \(pid): \(fields["Seccomp"] ?? "no Seccomp line")")
            #expect(fields["NoNewPrivs"] == "1", "worker \(pid)")
            // Image work: below the daemon's socket thread and session writer, as its pool threads are.
            #expect((Self.nice(of: pid) ?? 0) >= 10, "worker \(pid) nice \(Self.nice(of: pid).map(String.init) ?? "unknown")")
        }
        // And they decode: the good photo comes back through one.
        await #expect(try daemon.ctl("get-image", "-o", "/dev/null", session: "other").exitCode == 0)
        _ = library
    }

    /// A worker that crashes, makes a forbidden call or overruns its deadline is killed: the client
    /// gets an error naming the photo, the other session keeps being served, the pool is refilled
    /// with new processes and the next photo decodes.
    /// The same for a worker whose answer cannot be believed: pixels without a memfd, 2 channels,
    /// a memfd shorter than the picture, a 2^20-pixel-square picture, or nothing for a decode.
    @Test(arguments: [("crash", "SIGSEGV"), ("socket", "SIGSYS"), ("spin", "of CPU time"),
                      ("nomemfd", "answered garbage (pixels without a memfd)"), ("channels", "answered garbage (2 channels)"),
                      ("short", "answered garbage (pixels unusable"), ("huge", "answered garbage (a 1048576x1048576 px canvas"),
                      ("nothing", "answered garbage (no pixels and no error)")])
    func aMisbehavingDecoderFailsOnlyItsPhoto(kind: String, says reason: String) async throws {
        let (daemon, library) = try await daemon(misbehaving: kind, extra: ["--decode-seconds", "1"])
        defer { daemon.stopBlocking() }
        try await waitUntil("the pool", within: 30, seen: { daemon.log }) { Self.workerPIDs(of: daemon).count == Self.workers }
        let before = Set(Self.workerPIDs(of: daemon))
        let hostile = Task { try await daemon.ctl("get-image", "--no-cache", "-o", "/dev/null", session: "bomb") }
        // Meanwhile the other session is served (through the second worker, and the interactive lane).
        let status = try await daemon.ctl("status", session: "other")
        #expect(status.exitCode == 0, "\(status)")
        let result = try await hostile.value
        #expect(result.exitCode != 0)
        #expect(result.stderr.contains("misbehave-\(kind).png"), "the error names the photo: \(result.stderr)")
        #expect(result.stderr.contains("the decoder was stopped") && result.stderr.contains(reason), "\(result.stderr)")
        await #expect(try daemon.ctl("ping").exitCode == 0, "the daemon stays up")
        try await waitUntil("the pool refilled", within: 30, seen: { daemon.log }) {
            let now = Self.workerPIDs(of: daemon)
            return now.count == Self.workers && !Set(now).subtracting(before).isEmpty
        }
        // The photo is marked broken, and the next one decodes in the same session.
        let broken = try await daemon.ctl("status", session: "bomb")
        #expect(broken.stdoutText.contains("the decoder was stopped"), "\(broken)")
        _ = try await daemon.ctl("select-album", "small", session: "bomb")
        _ = try await daemon.ctl("select-photo", "--index", "1", session: "bomb")
        await #expect(try daemon.ctl("get-image", "-o", "/dev/null", session: "bomb").exitCode == 0)
        _ = library
    }

    /// A cancel kills the worker even inside a C loop that never checks a flag: the request is
    /// answered `cancelled`, the spinning process is gone and a new one takes its place.
    @Test func aCancelKillsADecoderThatNeverReturns() async throws {
        let (daemon, library) = try await daemon(misbehaving: "spin", extra: ["--decode-seconds", "600"])
        defer { daemon.stopBlocking() }
        try await waitUntil("the pool", within: 30, seen: { daemon.log }) { Self.workerPIDs(of: daemon).count == Self.workers }
        let before = Set(Self.workerPIDs(of: daemon))
        let conn = try RawConnection(socketPath: daemon.socketPath, clientName: "canceller")
        let image = try conn.sendInOneWrite([.getImage(ImageRequest(session: "bomb", noCache: true))])[0]
        // Wait until a worker spins (its CPU time grows), then cancel.
        try await waitUntil("a worker spinning", within: 60, seen: { daemon.log }) {
            Self.workerPIDs(of: daemon).contains { Self.status(of: $0)["State"]?.hasPrefix("R") == true }
        }
        // While its decode runs (it spins until cancelled), the busy worker is still under the filter.
        for pid in Self.workerPIDs(of: daemon) where Self.status(of: pid)["State"]?.hasPrefix("R") == true {
            let fields = Self.status(of: pid)
            #expect(fields["Seccomp"] == "2", "decoding worker \(pid): \(fields["Seccomp"] ?? "no Seccomp line")")
            #expect(fields["NoNewPrivs"] == "1", "decoding worker \(pid)")
        }
        let cancel = try conn.sendInOneWrite([.cancel(requestID: image)])[0]
        let replies = try conn.replies(to: [image, cancel])
        #expect(replies[cancel] == .cancelReply(requestID: image, found: true))
        guard case .error(let e)? = replies[image] else {
            Issue.record("a cancelled error, not \(String(describing: replies[image]))")
            return
        }
        #expect(e.code == .cancelled, "\(e)")
        try await waitUntil("the spinning worker replaced", within: 30, seen: { daemon.log }) {
            let now = Set(Self.workerPIDs(of: daemon))
            return now.count == Self.workers && now != before
        }
        await #expect(try daemon.ctl("get-image", "-o", "/dev/null", session: "other").exitCode == 0)
        _ = library
    }

    /// The worker holds only the descriptor it was given: open(2) of a path is refused.
    @Test func aWorkerCannotOpenAPath() async throws {
        let (daemon, library) = try await daemon(misbehaving: "open")
        defer { daemon.stopBlocking() }
        let result = try await daemon.ctl("get-image", "-o", "/dev/null", session: "bomb")
        #expect(result.exitCode != 0)
        #expect(result.stderr.contains("misbehave-open.png: the decoder may not open paths"), "\(result.stderr)")
        await #expect(try daemon.ctl("get-image", "-o", "/dev/null", session: "other").exitCode == 0)
        _ = library
    }

    /// A get-image PNG of 1 MiB and more is encoded from the worker's memfd a band at a time
    /// (`SealedPixelRows`): through pickerctl it is byte for byte the PNG a daemon decoding in process
    /// makes of the whole picture (an 1800x1200 pane: 6.5 MB bound, seven bands).
    @Test func aBigPNGStreamedFromTheWorkerIsThePNGOfTheWholePicture() async throws {
        let library = try await TemporaryLibrary()
        try library.add(TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/exif-orientation/Landscape_1.jpg"),
                        album: "big")
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("pkout-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputs) }
        var pngs: [Data] = []
        for extra in [[], ["--decode-in-process"]] {
            let daemon = try await LiveDaemon(library: library.url,
                                              extraArguments: ["--no-prefetch", "--no-shared-thumbnails"] + extra)
            defer { daemon.stopBlocking() }
            _ = try await daemon.ctl("session", "new", "s", "--width", "1800", "--height", "1200")
            _ = try await daemon.ctl("select-album", "big", session: "s")
            _ = try await daemon.ctl("select-photo", "--index", "1", session: "s")
            let out = outputs.appendingPathComponent("out-\(pngs.count).png")
            let got = try await daemon.ctl("-o", out.path, "get-image", "--no-cache", session: "s")
            #expect(got.exitCode == 0, "\(got)")
            pngs.append(try Data(contentsOf: out))
        }
        #expect(pngs[0].count > 1 << 20 && pngs[0].starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(pngs[0].count) bytes")
        let same = pngs[0] == pngs[1]  // a Bool: Testing would diff two failing megabyte buffers for minutes
        #expect(same, "streamed \(pngs[0].count) bytes, whole \(pngs[1].count)")
    }

    /// `--decode-in-process` decodes in the daemon: no worker processes.
    @Test func decodeInProcessStartsNoWorkers() async throws {
        let (daemon, library) = try await daemon(misbehaving: "none", extra: ["--decode-in-process"])
        defer { daemon.stopBlocking() }
        await #expect(try daemon.ctl("get-image", "-o", "/dev/null", session: "other").exitCode == 0)
        #expect(Self.workerPIDs(of: daemon).isEmpty)
        _ = library
    }
}
