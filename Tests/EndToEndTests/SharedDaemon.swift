import Foundation
import Testing

/// One daemon for a whole suite whose tests only read it (or each use a session of their own):
/// started once before the suite's first test, stopped after its last. A debug pickerd's start and
/// first scan cost far more than most of these tests' bodies, and each start holds a child slot.
///
///     @Suite(.sharedDaemon { library in try library.add(…, album: "A") }) struct XTests {
///         var daemon: LiveDaemon { get throws { try SharedDaemon.current } }
///
/// A suite that changes the default session, the library or the daemon's life must keep a daemon of
/// its own per test.
struct SharedDaemon: SuiteTrait, TestScoping {
    typealias Fill = @Sendable (TemporaryLibrary) async throws -> Void
    typealias Prepare = @Sendable (LiveDaemon) async throws -> Void

    /// The suite's library and daemon, set while its tests run.
    @TaskLocal private static var running: Running?

    final class Running: Sendable {
        let library: TemporaryLibrary
        let daemon: LiveDaemon
        init(library: TemporaryLibrary, daemon: LiveDaemon) {
            self.library = library
            self.daemon = daemon
        }
    }

    enum Failure: Error, CustomStringConvertible {
        case outsideSuite
        var description: String { "SharedDaemon.current read outside a suite marked .sharedDaemon" }
    }

    let fill: Fill
    let prepare: Prepare
    let extraArguments: [String]

    var isRecursive: Bool { false }

    /// The daemon of the suite whose test is running.
    static var current: LiveDaemon { get throws { try runningParts().daemon } }
    static var library: TemporaryLibrary { get throws { try runningParts().library } }

    /// A folder of the running test's own inside the shared daemon's (tests run in parallel).
    static func scratchFolder() throws -> URL {
        let url = try SharedDaemon.current.directory.appendingPathComponent("t-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func runningParts() throws -> Running {
        guard let running else { throw Failure.outsideSuite }
        return running
    }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> SharedDaemon? { test.isSuite ? self : nil }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let library = try await TemporaryLibrary()
        try await fill(library)
        let daemon = try await LiveDaemon(library: library.url, extraArguments: extraArguments)
        defer { daemon.stopBlocking() }
        try await prepare(daemon)
        try await SharedDaemon.$running.withValue(Running(library: library, daemon: daemon)) {
            try await function()
        }
    }
}

extension Trait where Self == SharedDaemon {
    /// One daemon for the suite on a library that `fill` makes; `prepare` runs once it has scanned
    /// (sessions every test reads).
    static func sharedDaemon(extraArguments: [String] = [], _ fill: @escaping SharedDaemon.Fill,
                             prepare: @escaping SharedDaemon.Prepare = { _ in }) -> SharedDaemon {
        SharedDaemon(fill: fill, prepare: prepare, extraArguments: extraArguments)
    }
}
