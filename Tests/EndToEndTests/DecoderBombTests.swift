import Foundation
import PickerClient
import PickerProtocol
import Testing

/// Issue 21 #2 and #3 as an attacker does it: one hostile file in the library of a real daemon.
/// The files are built by Tests/tools/make_hostile_icc.py and make_heif_grid_bombs.py (copies in
/// fuzz/regressions/image/). Before the bounds: the ICC profile cost ~9 s of CPU per decode in
/// Little CMS; the grid bomb decoded 16384² (~1.5 GB); the 40,000-tile grid decoded every tile.
/// CPU is read from /proc (the daemon's utime+stime), so a loaded machine does not change it.
@Suite(.timeLimit(.minutes(15))) struct DecoderBombTests {
    static let regressions = TestEnvironment.packageRoot.appendingPathComponent("fuzz/regressions/image")
    static let smallPhoto = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/pngsuite/basn2c08.png")
    static let budgetMiB = 256

    /// The daemon's CPU seconds so far (user + system).
    static func cpuSeconds(of pid: pid_t) -> Double {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    struct Outcome { let result: CommandResult; let cpu: Double; let peakMiB: Int; let smallAnswered: Bool }

    /// `get-image` of the hostile `file` while another session asks for a small picture.
    func attack(_ file: String) async throws -> Outcome {
        let library = try await TemporaryLibrary()
        try library.add(Self.regressions.appendingPathComponent(file), album: "hostile")
        try library.add(Self.smallPhoto, album: "small")
        let daemon = try await LiveDaemon(library: library.url,
                                    extraArguments: ["--memory-mb", "\(Self.budgetMiB)", "--no-shared-thumbnails"])
        let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "attacker")
        for (session, album) in [("bomb", "hostile"), ("other", "small")] {
            _ = try conn.call(.sessionNew(NewSession(name: session, width: 64, height: 48)))
            _ = try conn.call(.selectAlbum(session: session, .name(album)))
            _ = try conn.call(.selectPhoto(session: session, .index(1)))
        }
        let before = Self.cpuSeconds(of: daemon.pid)
        let hostileRequest = Task { try? await daemon.ctl(args: ["get-image", "--no-cache"], session: "bomb") }
        await pause(100_000)  // the hostile decode has started
        let small = try await daemon.ctl(args: ["get-image", "--no-cache"], session: "other")
        let hostile = await hostileRequest.value
        let cpu = Self.cpuSeconds(of: daemon.pid) - before
        let peak = MemoryBoundsTests.memory(of: daemon.pid).peak >> 20
        await #expect(try daemon.ctl("ping").exitCode == 0, "the daemon must stay up")
        let result = try #require(hostile)
        print("\(file): get-image exit \(result.exitCode), daemon CPU \(String(format: "%.2f", cpu)) s, VmHWM \(peak) MiB; \(result.stderr)")
        return Outcome(result: result, cpu: cpu, peakMiB: peak, smallAnswered: small.exitCode == 0)
    }

    /// A profile of 15,000 chained matrix stages is refused before Little CMS parses it: the
    /// photo shows without colour management.
    @Test func iccProfileBombShowsUnmanagedWithinTwoCPUSeconds() async throws {
        let o = try await attack("png-iccp-mpet-15000-stages.png")
        #expect(o.result.exitCode == 0, "the photo still shows: \(o.result.stderr)")
        #expect(o.cpu < 2, "daemon CPU for the hostile get-image: \(o.cpu) s")
        #expect(o.smallAnswered)
    }

    /// HEIF grids whose decode would not be what they declare, refused before libheif decodes:
    /// ispe says 512x512 and the grid composes 16384x16384; or 40,000 references to one tile.
    @Test(arguments: [("heic-grid-output-16384-ispe-512.heic", "its grid composes"),
                      ("heic-grid-40000-tiles.heic", "tiles")])
    func heifGridBombIsRefused(file: String, says reason: String) async throws {
        let o = try await attack(file)
        #expect(o.result.exitCode != 0)
        #expect(o.result.stderr.contains(reason), "a clear error: \(o.result.stderr)")
        #expect(o.cpu < 2, "daemon CPU: \(o.cpu) s")
        #expect(o.peakMiB < Self.budgetMiB + 100, "VmHWM \(o.peakMiB) MiB")
        #expect(o.smallAnswered)
    }
}
