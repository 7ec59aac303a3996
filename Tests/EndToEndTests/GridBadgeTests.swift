import Foundation
import Testing

/// Pick-number badges in the daemon's thumbnail grid (issue 13, item 3): the 40% overlay alone
/// all but vanishes on bright photos, so each picked cell also carries its number.
@Suite(.timeLimit(.minutes(15))) struct GridBadgeTests {
    let library: TemporaryLibrary
    let daemon: LiveDaemon
    static let accent = [10, 132, 255]

    init() throws {
        library = try TemporaryLibrary()
        let corpus = TestEnvironment.corpus.root
        for n in [1, 3, 6, 8] {
            try library.add(corpus.appendingPathComponent("exif-orientation/Landscape_\(n).jpg"), album: "Trip")
        }
        daemon = try LiveDaemon(library: library.url)
    }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    private func close(_ a: [Int], _ b: [Int], _ tolerance: Int = 3) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test(.enabled(if: pillowAvailable, "needs /usr/bin/python3 with Pillow to read pixels"))
    func pickedCellsCarryTheirPickNumberInABadgeAtTheTopRight() throws {
        _ = try daemon.ctl("session", "new", "b", "--width", "600")
        _ = try daemon.ctl("select-album", "Trip", session: "b")
        let plain = daemon.directory.appendingPathComponent("plain.png")
        #expect(try daemon.ctl("thumbnails", "-o", plain.path, session: "b").exitCode == 0)
        // Pick order is not grid order: cell 3 is pick 1, cell 1 is pick 2.
        #expect(try daemon.ctl("toggle", "--index", "3", session: "b").exitCode == 0)
        #expect(try daemon.ctl("toggle", "--index", "1", session: "b").exitCode == 0)
        let picked = daemon.directory.appendingPathComponent("picked.png")
        #expect(try daemon.ctl("thumbnails", "-o", picked.path, session: "b").exitCode == 0)
        let cells = try json(try daemon.ctl("thumbnails", "--json", session: "b"))["cells"] as? [[String: Any]] ?? []
        #expect(cells.count == 4)
        let origins = cells.map { ($0["x"] as? Int ?? 0, $0["y"] as? Int ?? 0) }

        // 100 px cells: a 25 px circle inset 5 px from the top and right edges (x+70…x+95, y+5…y+30),
        // its digit 10x14 px at (x+78, y+11). Two points inside the circle, beside the digit:
        func disc(_ o: (Int, Int)) -> [[Int]] { [[o.0 + 74, o.1 + 17], [o.0 + 91, o.1 + 17]] }
        // and the digit's box.
        func glyph(_ o: (Int, Int)) -> [[Int]] {
            (0..<14).flatMap { dy in (0..<10).map { dx in [o.0 + 78 + dx, o.1 + 11 + dy] } }
        }
        for (i, o) in origins.enumerated() {
            let now = try ClaimImages.pixels(picked, disc(o))
            if i == 0 || i == 2 {
                #expect(now.allSatisfy { close($0, Self.accent) }, "cell \(i + 1) badge: \(now)")
            } else {
                let before = try ClaimImages.pixels(plain, disc(o))
                #expect(now == before, "unpicked cell \(i + 1) must have no badge: \(before) → \(now)")
            }
        }
        // The corner opposite the badge shows only the overlay: no accent there.
        let topLeft = try ClaimImages.pixels(picked, [[origins[2].0 + 17, origins[2].1 + 17]])
        #expect(!close(topLeft[0], Self.accent, 40), "\(topLeft)")

        // The digits: white strokes on the accent disc, and "1" (cell 3) is not "2" (cell 1).
        let one = try ClaimImages.pixels(picked, glyph(origins[2]))
        let two = try ClaimImages.pixels(picked, glyph(origins[0]))
        let white = { (p: [Int]) in p.allSatisfy { $0 >= 245 } }
        #expect(one.filter(white).count >= 20 && two.filter(white).count >= 20, "digits must be drawn in white")
        #expect(one.filter { close($0, Self.accent) }.count >= 20, "the digit sits on the accent disc")
        #expect(one.map(white) != two.map(white), "pick 1 and pick 2 must show different digits")
        // The bitmap "1" lights fewer pixels than "2" (10 against 14 font pixels, 2x2 each).
        #expect(one.filter(white).count < two.filter(white).count)

        // Unpicking pick 1 renumbers: the photo in cell 1 becomes pick 1 and shows cell 3's old digit.
        #expect(try daemon.ctl("toggle", "--index", "3", session: "b").exitCode == 0)
        let after = daemon.directory.appendingPathComponent("after.png")
        #expect(try daemon.ctl("thumbnails", "-o", after.path, session: "b").exitCode == 0)
        let renumbered = try ClaimImages.pixels(after, glyph(origins[0]))
        #expect(renumbered.map(white) == one.map(white), "cell 1 must now show the digit 1")
    }
}
