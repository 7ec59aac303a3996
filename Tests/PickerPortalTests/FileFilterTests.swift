import Testing
@testable import PickerPortal

/// Filters matched against photo file names: case-sensitive globs, MIME types by extension.
@Suite struct FileFilterTests {
    @Test func globsAreCaseSensitiveAsThePortalSpecifies() {
        let lower = FileFilter(name: "PNG", patterns: [.glob("*.png")])
        #expect(lower.matches(fileName: "a.png") && !lower.matches(fileName: "a.PNG") && !lower.matches(fileName: "a.jpg"))
        let both = FileFilter(name: "ICO", patterns: [.glob("*.[pP][nN][gG]")])
        #expect(both.matches(fileName: "a.PNG") && both.matches(fileName: "a.Png"))
    }

    @Test func mimeTypesMatchByExtensionAndImageStarMatchesEveryPhoto() {
        let jpeg = FileFilter(name: "JPEG", patterns: [.mime("image/jpeg")])
        #expect(jpeg.matches(fileName: "IMG_1.JPG") && jpeg.matches(fileName: "a.jpeg") && !jpeg.matches(fileName: "a.png"))
        let any = FileFilter(name: "Images", patterns: [.mime("image/*")])
        #expect(any.matches(fileName: "IMG_1.CR3") && any.acceptsEveryPhoto)
        #expect(FileFilter(name: "RAW", patterns: [.mime("image/x-canon-cr3")]).matches(fileName: "IMG_1.CR3"))
    }

    @Test func aFilterThatPassesNoPhotoIsToldApart() {
        #expect(!FileFilter(name: "Text", patterns: [.mime("text/plain")]).acceptsSomePhoto)
        #expect(!FileFilter(name: "PDF", patterns: [.glob("*.pdf")]).acceptsSomePhoto)
        #expect(FileFilter(name: "All", patterns: [.glob("*.*")]).acceptsEveryPhoto)
        let chromium = FileFilter(name: "PNG", patterns: [.glob("*.png"), .glob("*.PNG")])
        #expect(chromium.acceptsSomePhoto && !chromium.acceptsEveryPhoto)
    }
}
