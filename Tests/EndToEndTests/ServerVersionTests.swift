import Foundation
import PickerProtocol
import Testing

/// The running daemon sends the `server_version` that docs/PROTOCOL.md's vectors show
/// (`Release.serverVersion`; GoldenVectorTests ties the document to the same value).
@Suite(.timeLimit(.minutes(15))) struct ServerVersionTests {
    @Test func theDaemonSendsTheDocumentedServerVersionInHelloAndPong() throws {
        let library = try TemporaryLibrary()
        let daemon = try LiveDaemon(library: library.url)
        let ping = try daemon.ctl("ping", "--json")
        let object = try JSONSerialization.jsonObject(with: ping.stdout) as? [String: Any]
        #expect(object?["version"] as? String == Release.serverVersion, "\(ping)")
        #expect(try daemon.ctl("ping").stdoutText == Release.serverVersion + "\n")
        let version = try runProcess(TestEnvironment.pickerd.path, ["--version"])
        #expect(version.stdoutText == Release.serverVersion + "\n")
    }
}
