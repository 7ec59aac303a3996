import Foundation
import PickerEngine
import PickerProtocol
import Testing

private typealias Support = LibraryTestSupport

/// `scanProgress` and `libraryInfo` tell one story (PROTOCOL.md, scanProgressReply): while the first
/// scan has not finished — including before it has begun — both say scanning.
@Suite struct ScanProgressStateTests {
    /// Failed before: scanProgress said state 1 "ready" with all counts 0 until the first scan began.
    @Test func beforeTheFirstScanBeginsBothSayScanning() throws {
        try Support.withTemporaryTree { root in
            try Support.write(Support.jpeg(width: 9, height: 9), to: root + "/A/p.jpg")
            let library = PhotoLibrary(root: root)
            #expect(library.info.scanState == .scanning)
            #expect(library.scanProgress.state == .scanning)
            // The first-scan rule: no saved index, so an empty library until the scan ends, never row by row.
            #expect(library.info.photoCount == 0)
            _ = library.rescan()
            #expect(library.info.photoCount == 1)
            #expect(library.info.scanState == .ready)
            #expect(library.scanProgress.state == .ready)
            #expect(library.scanProgress.filesDone == 1)
        }
    }
}
