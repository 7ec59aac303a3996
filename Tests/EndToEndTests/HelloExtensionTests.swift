import Foundation
import PickerProtocol
import Testing

/// The extension rule against a real daemon: a client that asks for `idle_timeout` gets it; a
/// client from before the rule (a v1 hello) gets a helloReply without any extension area.
@Suite(.timeLimit(.minutes(15))) struct HelloExtensionTests {
    let library: TemporaryLibrary

    init() async throws {
        library = try await TemporaryLibrary()
        try library.add(TestEnvironment.corpus.root.appendingPathComponent("exif-orientation/Landscape_1.jpg"), album: "A")
    }

    private func helloReply(_ daemon: LiveDaemon, _ hello: Hello) throws -> Frame? {
        let c = try RawConnection(path: daemon.socketPath)
        try c.send(.hello(hello), id: 1)
        return try c.nextFrame()
    }

    @Test func aHelloThatAsksIsToldTheIdleTimeoutAndAV1HelloIsNot() async throws {
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--idle-timeout", "42"])
        defer { daemon.stopBlocking() }
        let asked = try #require(try helloReply(daemon, Hello(clientName: "new", extensions: ExtensionArea([.init(tag: 1)]))))
        guard case .hello(let caps) = try Reply(frame: asked) else {
            Issue.record("not a helloReply: \(asked)")
            return
        }
        #expect(caps.idleTimeoutSeconds == 42)
        let old = try #require(try helloReply(daemon, Hello(clientName: "old")))
        guard case .hello(var plain) = try Reply(frame: old) else { return }
        #expect(plain.extensions.isEmpty)
        // Byte for byte the released layout: the same capabilities without an area.
        plain.extensions = ExtensionArea()
        #expect(old.payload == Reply.hello(plain).frame(id: 1).payload)
        #expect(old.payload.count + 9 == asked.payload.count, "the area is one entry of 4 bytes")
    }
}
