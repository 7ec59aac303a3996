import Foundation
import PickerProtocol
import Testing

/// The running daemon sends the `server_version` that docs/PROTOCOL.md's vectors show
/// (`Release.serverVersion`; GoldenVectorTests ties the document to the same value).
@Suite(.timeLimit(.minutes(15))) struct ServerVersionTests {
    @Test func theDaemonSendsTheDocumentedServerVersionInHelloAndPong() async throws {
        let library = try await TemporaryLibrary()
        let daemon = try await LiveDaemon(library: library.url)
        let ping = try await daemon.ctl("ping", "--json")
        let object = try JSONSerialization.jsonObject(with: ping.stdout) as? [String: Any]
        #expect(object?["version"] as? String == Release.serverVersion, "\(ping)")
        await #expect(try daemon.ctl("ping").stdoutText == Release.serverVersion + "\n")
        let version = try await runProcess(TestEnvironment.pickerd.path, ["--version"])
        #expect(version.stdoutText == Release.serverVersion + "\n")
    }
}
