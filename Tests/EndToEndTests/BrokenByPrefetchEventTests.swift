import Foundation
import PickerClient
import PickerProtocol
import Testing

/// A photo found broken by the background render of the first thumbnail page (after `select-album`)
/// is announced like one found by getImage or the grid (PROTOCOL.md, broken photos; issue 22
/// disagreement 4). Before: the row was marked broken in photosPage but no event was ever sent.
@Suite(.timeLimit(.minutes(15))) struct BrokenByPrefetchEventTests {
    static let truncated = "sharp_truncated.jpg"

    @Test func aPhotoTheThumbnailPrefetchFindsBrokenIsAnnouncedOnce() async throws {
        let library = try await TemporaryLibrary()
        let fixtures = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures")
        try library.add(fixtures.appendingPathComponent("camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"), album: "A")
        try library.add(fixtures.appendingPathComponent("jpeg-broken/\(Self.truncated)"), album: "A")
        let daemon = try await LiveDaemon(library: library.url)
        defer { daemon.stopBlocking() }
        let listener = try PickerConnection(socketPath: daemon.socketPath, clientName: "listener")
        _ = try listener.receive(id: try listener.send(.subscribe(Subscription(session: nil, library: true))))
        #expect(try await daemon.ctl("session", "new", "b", "--width", "600").exitCode == 0)
        #expect(try await daemon.ctl("select-album", "A", session: "b").exitCode == 0)
        // Nothing but the background prefetch decodes the photo: wait until its mark shows.
        let marked = try await eventually(within: 60) {
            let out = try await daemon.ctl("photos", "--json", session: "b")
            let rows = (try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
            return rows.first { $0["name"] as? String == Self.truncated }?["broken"] != nil
        }
        #expect(marked, "the prefetch never marked the truncated photo")
        let ping = try listener.send(.ping)
        var changed: [[String]] = []
        while true {
            let f = try listener.nextFrame()
            if f.isEvent, case .libraryChanges(let c) = try Event(frame: f) { changed.append(c.changed) }
            if !f.isEvent && f.requestID == ping { break }
        }
        #expect(changed == [["A/\(Self.truncated)"]])
    }
}
