import Foundation
import Testing

/// Issue 27: a camera RAW shown by its embedded preview costs the decoder its preview, not the whole
/// file (`RAWPrefix`): a 40 MB RAW's sensor data is never read. A real daemon and its workers;
/// `/proc/PID/io`'s `rchar` counts every byte a worker read.
@Suite(.timeLimit(.minutes(10))) struct RAWPrefixTests {
    static let dng = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/raw/photoprism_canon_eos_6d.dng")

    /// Bytes the daemon's decoder workers have read so far.
    static func workersRead(_ daemon: LiveDaemon) -> Int {
        DecoderSandboxTests.workerPIDs(of: daemon).reduce(0) { total, pid in
            let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
            let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
            return total + (line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0)
        }
    }

    @Test func aBigRAWShownByItsPreviewIsNotReadWholeAndLooksTheSame() async throws {
        let library = try await TemporaryLibrary()
        try library.add(Self.dng, album: "small", as: "6d.dng")
        // The same DNG followed by 40 MB, where a full-size camera file keeps its sensor data.
        let big = library.url.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: big, withIntermediateDirectories: true)
        var padded = try Data(contentsOf: Self.dng)
        padded.append(Data(count: 40 << 20))
        try padded.write(to: big.appendingPathComponent("6d.dng"))
        let daemon = try await LiveDaemon(library: library.url, extraArguments: ["--no-prefetch", "--no-shared-thumbnails"])
        defer { daemon.stopBlocking() }

        var pictures: [String: Data] = [:]
        for album in ["small", "big"] {
            await #expect(try daemon.ctl("session", "new", album, "--width", "600", "--height", "400").exitCode == 0)
            await #expect(try daemon.ctl("select-album", album, session: album).exitCode == 0)
            await #expect(try daemon.ctl("select-photo", "--index", "1", session: album).exitCode == 0)
            let before = Self.workersRead(daemon)
            let out = daemon.directory.appendingPathComponent("\(album).png")
            let r = try await daemon.ctl("get-image", "--no-cache", "-o", out.path, session: album)
            #expect(r.exitCode == 0, "\(r)")
            let read = Self.workersRead(daemon) - before
            #expect(read > 0, "the workers' reads are seen")
            #expect(read < 4 << 20, "the \(album) DNG's decode read \(read) bytes: more than its start and preview")
            pictures[album] = try Data(contentsOf: out)
        }
        #expect(pictures["small"].map(isPNG) == true)
        #expect(pictures["small"] == pictures["big"], "the picture is the same whatever follows the preview")
    }
}
