import Foundation
import PickerClient
import PickerProtocol
import PickerSystem
import Testing

/// Bytes straight onto the socket: garbage, oversized lengths, pipelining, bad versions.
/// One daemon for the suite: each test speaks on connections of its own and uses its own session.
@Suite(.timeLimit(.minutes(15)), .sharedDaemon { library in
    try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
}) struct RawSocketTests {
    let daemon: LiveDaemon
    let scratch: URL

    init() throws {
        daemon = try SharedDaemon.current
        scratch = try SharedDaemon.scratchFolder()
    }

    /// Reads frames until the daemon closes the connection (or 30 s pass: a bound for a loaded machine, not a measurement).
    private func readUntilClosed(_ fd: Int32) throws -> (frames: [Frame], closed: Bool) {
        var tv = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        var frames: [Frame] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return (frames, true) }
            if n < 0 { return (frames, false) }
            decoder.append(buf[0..<n])
            while let f = try decoder.next() { frames.append(f) }
        }
    }

    private func connectRaw() throws -> Int32 { try UnixSocket.connect(path: daemon.socketPath) }

    private func handshake(_ fd: Int32) throws {
        try FileDescriptorIO.sendAll(fd, Request.hello(Hello(clientName: "raw-test")).frame(id: 1).encoded())
        guard let header = try FileDescriptorIO.readExactly(fd, count: 4) else { throw RawError.closed }
        let len = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        _ = try FileDescriptorIO.readExactly(fd, count: len)
    }

    enum RawError: Error { case closed }

    @Test func oversizedLengthIsRefusedAndTheConnectionClosedWhileOthersAreServed() async throws {
        let fd = try connectRaw()
        defer { FileDescriptorIO.close(fd) }
        try handshake(fd)
        // Claims 64 MiB and sends none of it: the daemon must answer from the prefix alone.
        try FileDescriptorIO.sendAll(fd, [0x04, 0x00, 0x00, 0x00])
        let (frames, closed) = try readUntilClosed(fd)
        #expect(closed)
        let reply = try frames.first.map { try Reply(frame: $0) }
        #expect(reply == .error(PickerError(.frameTooLarge, "frame of 67108864 bytes exceeds the maximum of 1048576 bytes")))
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func garbageBeforeTheHandshakeGetsAnErrorAndAClose() async throws {
        let fd = try connectRaw()
        defer { FileDescriptorIO.close(fd) }
        try FileDescriptorIO.sendAll(fd, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let (frames, closed) = try readUntilClosed(fd)
        #expect(closed)
        if let f = frames.first, case .error(let e) = try Reply(frame: f) {
            #expect(e.code == .frameTooLarge || e.code == .malformedFrame || e.code == .handshakeRequired)
        } else {
            Issue.record("expected an error frame, got \(frames)")
        }
        await #expect(try daemon.ctl("ping").exitCode == 0)
    }

    @Test func requestBeforeHelloIsRefused() async throws {
        let fd = try connectRaw()
        defer { FileDescriptorIO.close(fd) }
        try FileDescriptorIO.sendAll(fd, Request.ping.frame(id: 9).encoded())
        let (frames, closed) = try readUntilClosed(fd)
        #expect(closed)
        #expect(frames.count == 1)
        #expect(frames.first?.requestID == 9)
        if let f = frames.first, case .error(let e) = try Reply(frame: f) {
            #expect(e.code == .handshakeRequired)
        } else {
            Issue.record("expected handshake_required, got \(frames)")
        }
    }

    @Test func futureProtocolVersionIsRefusedWithItsError() async throws {
        let fd = try connectRaw()
        defer { FileDescriptorIO.close(fd) }
        try FileDescriptorIO.sendAll(fd, Request.hello(Hello(version: 99, clientName: "future")).frame(id: 3).encoded())
        let (frames, closed) = try readUntilClosed(fd)
        #expect(closed)
        if let f = frames.first, case .error(let e) = try Reply(frame: f) {
            #expect(e.code == .unsupportedVersion)
            #expect(e.message.contains("99"))
        } else {
            Issue.record("expected unsupported_version, got \(frames)")
        }
    }

    @Test func handshakeStatesCapabilities() async throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "caps-test")
        #expect(conn.capabilities.version == ProtocolLimits.version)
        #expect(conn.capabilities.maxRequestFrame == 1 << 20)
        #expect(Set(conn.capabilities.inputFormats) == [.jpeg, .png, .webp, .heic, .avif, .gif, .jxl, .raw])
        #expect(Set(conn.capabilities.outputFormats) == [.jpeg, .png, .webp, .sixel, .symbols])
    }

    @Test func pipelinedRequestsEachGetTheirOwnReply() async throws {
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "pipeline-test")
        var ids: [UInt32: Request] = [:]
        for i in 0..<20 {
            let r: Request = i % 2 == 0 ? .ping : .sessionShow(name: "missing-\(i)")
            ids[try conn.send(r)] = r
        }
        var seen: Set<UInt32> = []
        while seen.count < ids.count {
            let f = try conn.nextFrame()
            #expect(!f.isEvent)
            let reply = try Reply(frame: f)
            switch ids[f.requestID] {
            case .ping?: #expect(reply == .pong(serverVersion: "pickerd 0.1.0"))
            case .sessionShow(let name)?:
                if case .error(let e) = reply { #expect(e.code == .noSuchSession && e.message.contains(name)) }
                else { Issue.record("expected an error for \(name)") }
            default: Issue.record("reply for unknown id \(f.requestID)")
            }
            #expect(seen.insert(f.requestID).inserted, "one reply per request")
        }
    }

    @Test func malformedPayloadGetsAnErrorAndTheConnectionStaysUsable() async throws {
        let fd = try connectRaw()
        defer { FileDescriptorIO.close(fd) }
        try handshake(fd)
        // status with a string length that overruns the payload, an unknown type, then a good ping.
        try FileDescriptorIO.sendAll(fd, Frame(type: MessageType.status.rawValue, requestID: 5, payload: [0, 0, 0, 50, 65]).encoded())
        try FileDescriptorIO.sendAll(fd, Frame(type: 0x7E, requestID: 6, payload: []).encoded())
        try FileDescriptorIO.sendAll(fd, Request.ping.frame(id: 7).encoded())
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        var replies: [UInt32: Reply] = [:]
        var buf = [UInt8](repeating: 0, count: 4096)
        while replies.count < 3 {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            decoder.append(buf[0..<n])
            while let f = try decoder.next() { replies[f.requestID] = try Reply(frame: f) }
        }
        if case .error(let e)? = replies[5] { #expect(e.code == .malformedFrame) } else { Issue.record("no error for 5") }
        if case .error(let e)? = replies[6] { #expect(e.code == .unknownMessageType) } else { Issue.record("no error for 6") }
        #expect(replies[7] == .pong(serverVersion: "pickerd 0.1.0"))
    }

    @Test func clientVanishingMidReplyDoesNotDisturbOthers() async throws {
        _ = try await daemon.ctl("session", "new", "v", "--width", "2000", "--height", "2000")
        _ = try await daemon.ctl("select-album", "A", session: "v")
        _ = try await daemon.ctl("select-photo", "--index", "1", session: "v")
        for _ in 0..<5 {
            let fd = try connectRaw()
            try handshake(fd)
            try FileDescriptorIO.sendAll(fd, Request.getImage(ImageRequest(session: "v", noCache: true)).frame(id: 2).encoded())
            FileDescriptorIO.close(fd)
        }
        await #expect(try daemon.ctl("ping").exitCode == 0)
        await #expect(try daemon.ctl("get-image", "-o", scratch.appendingPathComponent("v.png").path, session: "v").exitCode == 0)
    }
}
