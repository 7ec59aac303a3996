import Testing
@testable import PickerPortal

/// The MIME type each answered photo is recorded with in recently-used.xbel.
@Suite struct RecentlyUsedTests {
    @Test(arguments: [("/p/a.png", "image/png"), ("/p/B.JPG", "image/jpeg"), ("/p/c.heic", "image/heic"),
                      ("/p/d.CR2", "image/x-canon-cr2"), ("/p/e.jxl", "image/jxl"), ("/p/f.txt", "application/octet-stream"),
                      ("/p/noext", "application/octet-stream")])
    func eachPhotoGetsTheTypeNamedAfterItsExtension(path: String, type: String) {
        #expect(RecentlyUsed.mimeType(of: path) == type)
    }
}
