import Foundation
import PickerProtocol
import PickerSystem
import Testing
@testable import PickerEngine

private typealias Support = LibraryTestSupport

/// The cache probe and the render key a picture the same way (RenderKey from one RenderTarget),
/// and the kinds of output never share a key: a real service over a real library, no daemon.
@Suite struct RenderKeyAgreementTests {
    @Test func theProbeFindsWhatTheRenderCachedAndOnlyForItsOwnKind() throws {
        try Support.withTemporaryTree { root in
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/exif-orientation/Landscape_1.jpg")
            try Support.write(Array(try Data(contentsOf: fixture)), to: root + "/A/p.jpg")
            var configuration = EngineConfiguration(libraryRoot: root, stateDirectory: nil, serverVersion: "test")
            configuration.prefetch = false
            let service = PickerService(configuration: configuration)
            _ = service.library.rescan()
            for request in [Request.sessionNew(NewSession(name: "s", width: 32, height: 32)),
                            .selectAlbum(session: "s", .index(2)), .selectPhoto(session: "s", .index(1))] {
                if case .error(let e) = service.handle(request) { Issue.record("\(request): \(e)") }
            }
            let image = Request.getImage(ImageRequest(session: "s", format: .png))
            let preview = Request.preview(PreviewRequest(session: "s", width: 32, height: 32, format: .png))
            #expect(!service.answersFromCache(image) && !service.answersFromCache(preview))
            let rendered = service.handle(image)
            guard case .image = rendered else { Issue.record("getImage failed: \(rendered)"); return }
            #expect(service.answersFromCache(image), "the probe must find the render's key")
            #expect(!service.answersFromCache(preview), "a preview of the same size is another kind of output")
            guard case .image = service.handle(preview) else { Issue.record("preview failed"); return }
            #expect(service.answersFromCache(preview))
        }
    }

    @Test func kindsOfOutputOfOneSizeHaveDistinctKeys() {
        let file = FileVersion(identity: FileIdentity(device: 1, inode: 2), size: 3, mtimeSeconds: 4, mtimeNanoseconds: 5)
        let png = OutputSpec(format: .png)
        let keys: Set<RenderKey> = [
            RenderKey(file: file, target: .fit(FitTarget(maxWidth: 100, maxHeight: 100), png)),
            RenderKey(file: file, target: .preview(width: 100, height: 100, png)),
            RenderKey(file: file, target: .thumbnailCell(size: 100)),
        ]
        #expect(keys.count == 3)
    }
}
