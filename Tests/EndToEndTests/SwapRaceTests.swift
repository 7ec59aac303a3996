import Foundation
import PickerClient
import PickerProtocol
import Synchronization
import Testing

/// The attack of issue 9: someone who can write in the library swaps an album folder with a
/// symlink to an outside folder holding a same-named photo (renameat2 RENAME_EXCHANGE in a loop)
/// while clients read. Not one pixel from outside may come back, from a fresh decode or a cache.
@Suite(.timeLimit(.minutes(15))) struct SwapRaceTests {
    static let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/tools/swap_race.py").path
    static let hasPillow = (try? runProcess(TestEnvironment.python, ["-c", "import PIL"]))?.exitCode == 0

    /// What the clients saw: distinct images (by bytes) per kind, and error codes with counts.
    final class Observed: Sendable {
        struct Image: Hashable { var kind: String; var data: Data; var box: [Int] }
        let images = Mutex<Set<Image>>([])
        let counts = Mutex<[String: Int]>([:])
        func count(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    }

    private static let sessions = ["r1", "r2", "r3", "r4"]

    /// One request of each kind, in turn, recorded into `seen`.
    private static func ask(_ conn: PickerConnection, session: String, turn: Int, into seen: Observed) throws {
        let kinds: [(String, Request)] = [
            ("get-image --no-cache", .getImage(ImageRequest(session: session, noCache: true))),
            ("get-image", .getImage(ImageRequest(session: session))),
            ("preview", .preview(PreviewRequest(session: session, width: 320, height: 240))),
            ("thumbnails", .thumbnails(ThumbnailRequest(session: session, cellSize: 64))),
        ]
        let (kind, request) = kinds[turn % kinds.count]
        let id = try conn.send(request)
        switch try conn.receive(id: id) {
        case .image(let image):
            let box = [image.width / 2 - 8, image.height / 2 - 8, 16, 16]
            seen.images.withLock { _ = $0.insert(.init(kind: kind, data: Data(image.data), box: box)) }
            seen.count(kind + " ok")
        case .thumbnails(let sheet):
            guard let image = sheet.image, let cell = sheet.geometry.cells.first else { return seen.count("thumbnails empty") }
            let box = [cell.x + cell.size / 2 - 8, cell.y + cell.size / 2 - 8, 16, 16]
            seen.images.withLock { _ = $0.insert(.init(kind: kind, data: Data(image.data), box: box)) }
            seen.count(kind + " ok")
        case .error(let e):
            seen.count("\(kind) error \(e.code)")
        default:
            seen.count("\(kind) other reply")
        }
    }

    /// Brightness of the middle of each distinct image, judged by Pillow.
    private static func brightness(of images: Set<Observed.Image>, in dir: URL) throws -> [(kind: String, value: Double)] {
        var out: [(String, Double)] = []
        for (i, image) in images.enumerated() {
            let file = dir.appendingPathComponent("seen-\(i).img")
            try image.data.write(to: file)
            let values = try ImageCheck.regions(file, [image.box])
            out.append((image.kind, values.first ?? -1))
        }
        return out
    }

    @Test(.enabled(if: hasPillow, "needs Pillow (python3-pil) to make and judge the images"))
    func swappingAnAlbumForAnOutsideSymlinkServesNoOutsidePixel() throws {
        let library = try TemporaryLibrary()
        let outside = try TemporaryLibrary()
        let made = try runProcess(TestEnvironment.python, [Self.script, "make", library.url.path, outside.url.path])
        try #require(made.exitCode == 0, "\(made)")
        let daemon = try LiveDaemon(library: library.url)
        let setup = try PickerConnection(socketPath: daemon.socketPath, clientName: "race-setup")
        for s in Self.sessions {
            _ = try setup.call(.sessionNew(NewSession(name: s, width: 320, height: 240)))
            _ = try setup.call(.selectAlbum(session: s, .name("Album")))
            #expect(try setup.call(.selectPhoto(session: s, .name("p.png"))).isSessionState)
        }
        // Warm every cache from the inside picture before the attack starts.
        let warm = Observed()
        for (i, s) in Self.sessions.enumerated() { for turn in 0..<4 { try Self.ask(setup, session: s, turn: turn + i, into: warm) } }
        #expect(warm.counts.withLock { $0.values.reduce(0, +) } == 16 && warm.counts.withLock { $0.keys.allSatisfy { $0.hasSuffix(" ok") } },
                "\(warm.counts.withLock { $0 })")

        // The attack, for three seconds, while four clients read.
        let swapperOut = daemon.directory.appendingPathComponent("swapper.out").path
        let swapper = try spawnProcess(TestEnvironment.python, [Self.script, "swap", library.url.path, "3"],
                                       environment: nil, stdin: "/dev/null", stdout: swapperOut, stderr: swapperOut)
        let seen = Observed()
        let failures = Mutex<[String]>([])
        // Clients read for as long as the swapper runs (concurrentPerform may run fewer threads than
        // iterations, so nothing in it waits for another iteration).
        let deadline = ContinuousClock.now + .seconds(3)
        DispatchQueue.concurrentPerform(iterations: Self.sessions.count) { i in
            do {
                let conn = try PickerConnection(socketPath: daemon.socketPath, clientName: "race-\(i)")
                var turn = i
                while ContinuousClock.now < deadline {
                    try Self.ask(conn, session: Self.sessions[i], turn: turn, into: seen)
                    turn += 1
                }
            } catch {
                failures.withLock { $0.append("client \(i): \(error)") }
            }
        }
        let swapperStatus = waitForExit(swapper)
        #expect(swapperStatus == 0, "the swapper failed: \((try? String(contentsOfFile: swapperOut, encoding: .utf8)) ?? "")")
        let swaps = (try? String(contentsOfFile: swapperOut, encoding: .utf8)) ?? ""
        print("swap race: \(swaps.trimmingCharacters(in: .whitespacesAndNewlines)) swaps; replies: \(seen.counts.withLock { $0 })")
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")

        // The album is now the symlink to the outside: nothing cached from before may be served.
        let after = Observed()
        for (i, s) in Self.sessions.enumerated() { for turn in 0..<4 { try Self.ask(setup, session: s, turn: turn + i, into: after) } }
        let afterCounts = after.counts.withLock { $0 }
        #expect(!afterCounts.keys.contains { $0.hasPrefix("get-image") && $0.hasSuffix(" ok") }, "\(afterCounts)")
        #expect(!afterCounts.keys.contains { $0.hasPrefix("preview") && $0.hasSuffix(" ok") }, "\(afterCounts)")

        // Judge every distinct picture that came back: all bright (inside); the outside one is dark.
        let all = seen.images.withLock { $0 }.union(after.images.withLock { $0 })
        let judged = try Self.brightness(of: all, in: daemon.directory)
        let dark = judged.filter { $0.value < 46 }
        #expect(dark.isEmpty, "outside pixels served: \(dark)")
        // The race checked something: reads from the inside succeeded during it, of every kind.
        let counts = seen.counts.withLock { $0 }
        for kind in ["get-image --no-cache", "get-image", "preview", "thumbnails"] {
            #expect(counts[kind + " ok", default: 0] > 0, "no successful \(kind) during the race: \(counts)")
        }
    }
}

private extension Reply {
    var isSessionState: Bool {
        if case .session = self { return true }
        return false
    }
}
