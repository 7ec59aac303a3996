@testable import PickerEngine
import PickerProtocol
import PickerSystem
import Testing

/// `BrokenPhotos`: decode failures remembered by file version, with the decoder's reason.
@Suite struct BrokenPhotosTests {
    private static func version(size: Int64, mtime: Int64 = 1) -> FileVersion {
        FileVersion(identity: FileIdentity(device: 1, inode: 2), size: size, mtimeSeconds: mtime, mtimeNanoseconds: 0)
    }

    @Test func decodeFailureIsRememberedWithTheReasonWithoutThePhotoName() {
        let marks = BrokenPhotos()
        let error = PickerError(.corruptImage, "a.jpg: corrupt JPEG data: Premature end of JPEG file")
        #expect(marks.record(error, version: Self.version(size: 10), photoName: "a.jpg"))
        #expect(marks.reason(for: Self.version(size: 10)) == "corrupt JPEG data: Premature end of JPEG file")
        // Recorded again: not news.
        #expect(!marks.record(error, version: Self.version(size: 10), photoName: "a.jpg"))
    }

    @Test func anotherVersionOfTheFileIsNotKnownBroken() {
        let marks = BrokenPhotos()
        marks.record(PickerError(.unsupportedImage, "b.jpg: unsupported JPEG variant: 12-bit"), version: Self.version(size: 10),
                     photoName: "b.jpg")
        #expect(marks.reason(for: Self.version(size: 11)) == nil)
        #expect(marks.reason(for: Self.version(size: 10, mtime: 2)) == nil)
    }

    @Test func failuresThatAreNotTheFilesFaultMarkNothing() {
        let marks = BrokenPhotos()
        for code in [ErrorCode.ioError, .imageTooLarge, .cancelled, .tooBusy, .internal, .noSuchPhoto] {
            #expect(!marks.record(PickerError(code, "c.jpg: no"), version: Self.version(size: 10), photoName: "c.jpg"))
        }
        #expect(marks.reason(for: Self.version(size: 10)) == nil)
    }
}
