import Foundation
import PickerClient
import PickerProtocol
import PickerSystem
import Synchronization
import Testing

/// The daemon's memory stays bounded under hostile load (issue 9, findings 7 and 8): stalled
/// subscribers lose their subscription instead of queueing events without end, and concurrent
/// image jobs share one byte budget (`pickerd --memory-mb`). Memory is read from the daemon's
/// `/proc/<pid>/status` (VmRSS now, VmHWM the peak).
@Suite(.timeLimit(.minutes(15))) struct MemoryBoundsTests {
    /// The camera photo in the repository's fixtures (5760×3840, 2.2 MB).
    static let cameraPhoto = TestEnvironment.packageRoot
        .appendingPathComponent("Tests/Fixtures/camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg")
    static let mib = 1 << 20

    /// VmRSS and VmHWM of a process, in bytes.
    static func memory(of pid: pid_t) -> (rss: Int, peak: Int) {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    static func inMiB(_ bytes: Int) -> String { "\(bytes / mib) MiB" }

    /// A session on `album` with its first photo current.
    static func makeSession(_ conn: PickerConnection, _ name: String, width: Int = 1000, height: Int = 1000) throws {
        _ = try conn.call(.sessionNew(NewSession(name: name, width: width, height: height)))
        _ = try conn.call(.selectAlbum(session: name, .index(1)))
        _ = try conn.call(.selectPhoto(session: name, .index(1)))
    }

    /// Runs `count` pickerctl commands at once; their results in order.
    static func concurrently(_ count: Int, _ command: @escaping @Sendable (Int) async throws -> CommandResult) async -> [Result<CommandResult, any Error>] {
        await withTaskGroup(of: (Int, Result<CommandResult, any Error>).self) { group in
            for i in 0..<count {
                group.addTask {
                    do { return (i, .success(try await command(i))) } catch { return (i, .failure(error)) }
                }
            }
            var all: [Int: Result<CommandResult, any Error>] = [:]
            for await (i, r) in group { all[i] = r }
            return (0..<count).map { all[$0] ?? .failure(CancellationError()) }
        }
    }

    @Test func stalledSubscribersAreDroppedWithTooBusyAndTheDaemonStaysSmall() async throws {
        let library = try await TemporaryLibrary()
        // Long album, photo and title (the longest a title may be) make every event about 1 KB, so a
        // few thousand changes pass what the kernel buffers for a subscriber (its 2 MiB send buffer)
        // and queue in the daemon.
        let album = String(repeating: "a", count: 200), photo = String(repeating: "p", count: 200) + ".jpg"
        try library.add(Self.cameraPhoto, album: album, as: photo)
        let daemon = try await LiveDaemon(library: library.url)
        let driver = try PickerConnection(socketPath: daemon.socketPath, clientName: "driver")
        _ = try driver.call(.sessionNew(NewSession(name: "busy", width: 800, height: 600,
                                                   title: String(repeating: "t", count: 256))))
        _ = try driver.call(.selectAlbum(session: "busy", .name(album)))
        _ = try driver.call(.selectPhoto(session: "busy", .name(photo)))

        // 100 subscribers that do the handshake and subscribe, then never read.
        let subscribers = 100
        var fds: [Int32] = []
        defer { fds.forEach { FileDescriptorIO.close($0) } }
        for i in 0..<subscribers {
            let fd = try UnixSocket.connect(path: daemon.socketPath)
            fds.append(fd)
            try FileDescriptorIO.sendAll(fd, Request.hello(Hello(clientName: "stalled-\(i)")).frame(id: 1).encoded()
                + Request.subscribe(Subscription(session: "busy", library: false)).frame(id: 7).encoded())
        }
        _ = try driver.call(.ping)
        let before = Self.memory(of: daemon.pid)

        // Thousands of changes, pipelined 32 deep on one connection (one session: answered in order).
        let changes = 6000
        var pending: [UInt32] = []
        for i in 0..<changes {
            pending.append(try driver.send(.sessionResize(name: "busy", width: 800 + i % 2, height: 600)))
            if pending.count == 32 {
                guard case .session = try driver.receive(id: pending.removeFirst()) else {
                    Issue.record("a resize failed")
                    return
                }
            }
        }
        for id in pending { _ = try driver.receive(id: id) }
        let after = Self.memory(of: daemon.pid)
        print("stalled subscribers: \(subscribers), changes: \(changes); daemon VmRSS \(Self.inMiB(before.rss)) → \(Self.inMiB(after.rss)) (+\(Self.inMiB(after.rss - before.rss))), VmHWM \(Self.inMiB(after.peak))")
        #expect(after.rss - before.rss < 64 * Self.mib, "daemon grew by \(Self.inMiB(after.rss - before.rss))")

        // A fresh client is served.
        await #expect(try daemon.ctl("ping").exitCode == 0)

        // Each subscriber, reading at last, finds events and then too_busy with its subscribe id.
        var dropped = 0
        for fd in fds {
            setReceiveTimeout(fd, seconds: 10)
            var events = 0
            while let frame = try readFrame(fd) {
                if frame.isEvent { events += 1; continue }
                guard frame.type == MessageType.error.rawValue else { continue }  // helloReply, subscribed
                if case .error(let e) = try Reply(frame: frame), e.code == .tooBusy, frame.requestID == 7,
                   e.message.contains("subscription ended") {
                    dropped += 1
                    #expect(events > 0)
                }
                break
            }
        }
        #expect(dropped == subscribers, "\(dropped) of \(subscribers) stalled subscribers were told")
        // The connection stays usable for requests.
        try FileDescriptorIO.sendAll(fds[0], Request.ping.frame(id: 99).encoded())
        var answered = false
        while let frame = try readFrame(fds[0]) {
            if frame.requestID == 99 { answered = frame.type == MessageType.pong.rawValue; break }
        }
        #expect(answered)
    }

    @Test func concurrentReadsOfHugeSparsePhotosStayWithinTheBudget() async throws {
        let library = try await TemporaryLibrary()
        // A real JPEG padded with zeros (sparse, no disk used): 500 MB, over the 100 MiB file
        // limit, and 90 MB, under it, so the file bytes count against the budget.
        let huge = try library.add(Self.cameraPhoto, album: "A", as: "huge.jpg")
        #expect(truncate(huge.path, 500_000_000) == 0)
        let big = try library.add(Self.cameraPhoto, album: "B", as: "big.jpg")
        #expect(truncate(big.path, 90_000_000) == 0)
        let budgetMiB = 256
        let daemon = try await LiveDaemon(library: library.url,
                                    extraArguments: ["--memory-mb", "\(budgetMiB)", "--cache-mb", "16", "--no-shared-thumbnails"])
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        let jobs = 6
        for i in 0..<jobs {
            _ = try setup.call(.sessionNew(NewSession(name: "h\(i)", width: 1000, height: 1000)))
            _ = try setup.call(.selectAlbum(session: "h\(i)", .name("A")))
            _ = try setup.call(.selectPhoto(session: "h\(i)", .index(1)))
            _ = try setup.call(.sessionNew(NewSession(name: "b\(i)", width: 1000, height: 1000)))
            _ = try setup.call(.selectAlbum(session: "b\(i)", .name("B")))
            _ = try setup.call(.selectPhoto(session: "b\(i)", .index(1)))
        }
        let base = Self.memory(of: daemon.pid)

        let hugeResults = await Self.concurrently(jobs) { i in
            try await daemon.ctl(args: ["get-image", "--no-cache"], session: "h\(i)")
        }
        for r in hugeResults {
            let result = try r.get()
            #expect(result.exitCode == 1 && result.stderr.contains("MiB are not read"), "\(result)")
        }
        let bigResults = await Self.concurrently(jobs) { i in
            try await daemon.ctl(args: ["get-image", "--no-cache"], session: "b\(i)")
        }
        for r in bigResults {
            let result = try r.get()
            #expect(result.exitCode == 0 && result.stdout.starts(with: [0x89, 0x50, 0x4e, 0x47]), "\(result)")
        }
        let peak = Self.memory(of: daemon.pid).peak
        print("6 get-image of a 500 MB and 6 of a 90 MB sparse JPEG, budget \(budgetMiB) MiB: VmRSS before \(Self.inMiB(base.rss)), VmHWM \(Self.inMiB(peak))")
        #expect(peak <= base.peak + (budgetMiB + 64) * Self.mib, "peak \(Self.inMiB(peak))")
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func concurrentLargestPreviewsStayWithinTheBudget() async throws {
        let library = try await TemporaryLibrary()
        try library.add(Self.cameraPhoto, album: "A")
        // One 8192×8192 PNG preview of this photo is estimated at about 545 MiB: one fits, two do not.
        let budgetMiB = 600
        let daemon = try await LiveDaemon(library: library.url,
                                    extraArguments: ["--memory-mb", "\(budgetMiB)", "--cache-mb", "16", "--no-shared-thumbnails"])
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        let jobs = 8
        for i in 0..<jobs { try Self.makeSession(setup, "p\(i)") }
        let base = Self.memory(of: daemon.pid)
        // Heights differ by a pixel so no two requests share a cache entry.
        let results = await Self.concurrently(jobs) { i in
            try await daemon.ctl(args: ["preview", "--width", "8192", "--height", "\(8192 - i)"], session: "p\(i)")
        }
        var images = 0
        for r in results {
            let result = try r.get()
            if result.exitCode == 0 {
                images += 1
                #expect(result.stdout.starts(with: [0x89, 0x50, 0x4e, 0x47]))
            } else {
                #expect(result.stderr.contains("busy") || result.stderr.contains("memory"), "\(result)")
            }
        }
        let peak = Self.memory(of: daemon.pid).peak
        print("8 previews at 8192², budget \(budgetMiB) MiB: \(images) images; VmRSS before \(Self.inMiB(base.rss)), VmHWM \(Self.inMiB(peak))")
        #expect(images == jobs, "requests wait for room in the budget rather than fail")
        #expect(peak <= base.peak + (budgetMiB + 64) * Self.mib, "peak \(Self.inMiB(peak))")
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    /// CPU seconds (in clock ticks) the process has used so far.
    static func cpuTicks(of pid: pid_t) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name, which ends at the last ')': utime is the 12th, stime the 13th.
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Waits (at most a minute) until the daemon has used no CPU for a second: its work is done.
    static func waitUntilIdle(_ pid: pid_t) async {
        var last = cpuTicks(of: pid)
        for _ in 0..<60 {
            await pause(1_000_000)
            let now = cpuTicks(of: pid)
            if now == last { return }
            last = now
        }
    }

    @Test func aClientThatPipelinesImagesAndNeverReadsHoldsOnlyAFewReplies() async throws {
        let library = try await TemporaryLibrary()
        try library.add(Self.cameraPhoto, album: "A")
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--cache-mb", "16", "--no-shared-thumbnails"])
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        // 64 sessions (image requests on one session would supersede each other).
        let count = 64
        for i in 0..<count { try Self.makeSession(setup, "r\(i)", width: 2000, height: 2000) }
        guard case .image(let sample) = try setup.call(.getImage(ImageRequest(session: "r0", format: .png, noCache: true))) else {
            Issue.record("no image")
            return
        }
        let base = Self.memory(of: daemon.pid)

        let fd = try UnixSocket.connect(path: daemon.socketPath)
        defer { FileDescriptorIO.close(fd) }
        var bytes = Request.hello(Hello(clientName: "hoarder")).frame(id: 1).encoded()
        for i in 0..<count {
            bytes += Request.getImage(ImageRequest(session: "r\(i)", format: .png, noCache: true)).frame(id: UInt32(2 + i)).encoded()
        }
        try FileDescriptorIO.sendAll(fd, bytes)
        await Self.waitUntilIdle(daemon.pid)
        let stalled = Self.memory(of: daemon.pid)
        print("64 pipelined get-image (PNG replies of \(sample.data.count / 1024) KiB) never read: daemon VmRSS \(Self.inMiB(base.rss)) → \(Self.inMiB(stalled.rss)), VmHWM \(Self.inMiB(stalled.peak))")
        // Unsent: about 256 KiB and the replies of the 4 image requests a connection may run at once
        // (plus what the kernel buffers); all 64 would be \(count * sample.data.count / Self.mib) MiB.
        #expect(stalled.rss - base.rss < 8 * sample.data.count + 32 * Self.mib,
                "grew by \(Self.inMiB(stalled.rss - base.rss))")
        await #expect(try daemon.ctl("ping").exitCode == 0)

        // Reading at last, every request is answered with its image.
        setReceiveTimeout(fd, seconds: 60)
        var images = 0
        while images < count, let frame = try readFrame(fd) {
            if case .image(let img) = try Reply(frame: frame) {
                images += 1
                #expect(img.data.count > 0)
            }
        }
        #expect(images == count)
    }

    @Test func aJobLargerThanTheWholeBudgetIsRefusedAtOnce() async throws {
        let library = try await TemporaryLibrary()
        try library.add(Self.cameraPhoto, album: "A")
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--memory-mb", "64", "--no-shared-thumbnails"])
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "setup")
        try Self.makeSession(setup, "p")
        let r = try await daemon.ctl(args: ["preview", "--width", "8192", "--height", "8192"], session: "p")
        #expect(r.exitCode == 1 && r.stderr.contains("whole image budget") && r.stderr.contains("--memory-mb"), "\(r)")
        // A small job still runs.
        await #expect(try daemon.ctl(args: ["get-image"], session: "p").exitCode == 0)
    }
}
