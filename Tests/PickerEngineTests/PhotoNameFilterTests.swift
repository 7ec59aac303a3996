import PickerProtocol
import Testing
@testable import PickerEngine

/// A session's filter: only the photos it admits are listed, counted, indexed and stepped through.
@Suite struct PhotoNameFilterTests {
    private static func photo(_ name: String) -> Photo {
        Photo(albumName: "mixed", fileName: name, relativePath: "mixed/" + name,
              header: ImageHeader(format: .jpeg, storedWidth: 1, storedHeight: 1), byteSize: 1, mtimeSeconds: 0)
    }

    static let mixed = Album(name: "mixed", kind: .folder(relativePath: "mixed"),
                             photos: ["a.jpg", "b.PNG", "c.png", "d.heic", "e.png"].map(photo))

    @Test func globsAreCaseSensitiveOnTheFileNameAndNoneAdmitsAll() {
        let png = PhotoNameFilter(["*.png"])
        #expect(png.admits("c.png") && !png.admits("b.PNG") && !png.admits("a.jpg"))
        #expect(PhotoNameFilter(["*.png", "*.PNG"]).admits("b.PNG"))
        #expect(PhotoNameFilter(["[ab].*"]).admits("a.jpg"))
        #expect(PhotoNameFilter.all.admits("anything"))
    }

    @Test func anOrderedAlbumShowsOnlyWhatTheFilterAdmitsInEveryOrder() throws {
        let cache = AlbumOrderCache()
        for order in [PhotoSortOrder.name, .date] {
            let shown = cache.ordered(Self.mixed, order, filter: PhotoNameFilter(["*.png"]))
            #expect(shown.count == 2)
            #expect(Set(shown.photos.map(\.fileName)) == ["c.png", "e.png"])
            #expect(shown.position(ofPhotoAt: "mixed/a.jpg") == nil)
            #expect(try shown.photo(.index(2)).fileName == shown[1].fileName)
            #expect(throws: PickerError.self) { try shown.photo(.index(3)) }
            #expect(throws: PickerError.self) { try shown.photo(.name("a.jpg")) }
            #expect(try shown.photo(.name("c.png")).fileName == "c.png")
        }
        #expect(cache.ordered(Self.mixed, .name).count == 5, "the unfiltered album is another entry")
    }

    @Test func patternsAreValidatedLikeEveryOtherSessionField() {
        #expect(throws: PickerError.self) { try PhotoNameFilter.validate([""]) }
        #expect(throws: PickerError.self) { try PhotoNameFilter.validate(["*.png\u{1b}[2J"]) }
        #expect(throws: PickerError.self) { try PhotoNameFilter.validate(Array(repeating: "*.png", count: 65)) }
        #expect(throws: PickerError.self) { try PhotoNameFilter.validate([String(repeating: "x", count: 257)]) }
        #expect(throws: Never.self) { try PhotoNameFilter.validate(["*.png", "IMG_*.JPG"]) }
    }
}
