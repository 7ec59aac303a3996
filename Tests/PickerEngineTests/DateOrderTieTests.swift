import Foundation
import PickerProtocol
import Testing
@testable import PickerEngine

/// PROTOCOL.md's rule for ties in `date` order, as a client written from the document checked it
/// (issue 22 disagreement 3): photos of one EXIF second are in natural path order, the mtime plays no part.
@Suite struct DateOrderTieTests {
    private static func photo(_ name: String, mtime: Int64) -> Photo {
        Photo(albumName: "A", fileName: name, relativePath: "A/" + name,
              header: ImageHeader(format: .jpeg, storedWidth: 1, storedHeight: 1, dateTimeOriginal: "2020:01:01 00:00:00"),
              byteSize: 1, mtimeSeconds: mtime)
    }

    @Test func photosOfOneExifSecondAreInPathOrderWhateverTheirMtimes() {
        let year: Int64 = 31_557_600
        let album = Album(name: "A", kind: .folder(relativePath: "A"), photos: [
            Self.photo("a.jpg", mtime: 31 * year), Self.photo("b.jpg", mtime: 32 * year), Self.photo("c.jpg", mtime: 30 * year),
        ])
        #expect(album.photos(sortedBy: .date).map(\.fileName) == ["a.jpg", "b.jpg", "c.jpg"])
    }

    @Test func theDocumentStatesTheRuleItIsCheckedBy() throws {
        let text = try String(contentsOfFile: TestPaths.protocolDocument, encoding: .utf8)
        #expect(text.contains("so the file mtime plays no part in `date`"))
        #expect(!text.contains("remaining ties by file mtime"))
    }
}

private enum TestPaths {
    static let protocolDocument: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("docs/PROTOCOL.md").path
    }()
}
