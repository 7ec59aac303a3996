@testable import PickerEngine
import PickerProtocol
import PickerSystem
import Testing

/// `BrokenPhotos`: decode failures remembered by file version, with the decoder's reason.
@Suite struct BrokenPhotosTests {
    private static func photo(_ name: String) -> Photo {
        Photo(albumName: "A", fileName: name, relativePath: "A/" + name,
              header: ImageHeader(format: .jpeg, storedWidth: 4, storedHeight: 3, orientation: .up), byteSize: 10,
              mtimeSeconds: 1)
    }

    private static func version(size: Int64, mtime: Int64 = 1) -> FileVersion {
        FileVersion(identity: FileIdentity(device: 1, inode: 2), size: size, mtimeSeconds: mtime, mtimeNanoseconds: 0)
    }

    @Test func decodeFailureIsRememberedWithTheReasonWithoutThePhotoName() {
        let marks = BrokenPhotos()
        let error = PickerError(.corruptImage, "a.jpg: corrupt JPEG data: Premature end of JPEG file")
        #expect(marks.record(error, version: Self.version(size: 10), photo: Self.photo("a.jpg")))
        #expect(marks.reason(for: Self.version(size: 10)) == "corrupt JPEG data: Premature end of JPEG file")
        // Recorded again: not news.
        #expect(!marks.record(error, version: Self.version(size: 10), photo: Self.photo("a.jpg")))
    }

    @Test func anotherVersionOfTheFileIsNotKnownBroken() {
        let marks = BrokenPhotos()
        marks.record(PickerError(.unsupportedImage, "b.jpg: unsupported JPEG variant: 12-bit"), version: Self.version(size: 10),
                     photo: Self.photo("b.jpg"))
        #expect(marks.reason(for: Self.version(size: 11)) == nil)
        #expect(marks.reason(for: Self.version(size: 10, mtime: 2)) == nil)
    }

    /// What reaches `record` is the decoder's failure (`PictureDecoding.decode(_:_:markingBrokenIn:newlyBroken:)`);
    /// the work budget's `image_too_large` is raised before any decode and never gets here.
    @Test func failuresThatAreNotTheFilesFaultMarkNothing() {
        let marks = BrokenPhotos()
        for code in [ErrorCode.ioError, .cancelled, .tooBusy, .internal, .noSuchPhoto] {
            #expect(!marks.record(PickerError(code, "c.jpg: no"), version: Self.version(size: 10), photo: Self.photo("c.jpg")))
        }
        #expect(marks.reason(for: Self.version(size: 10)) == nil)
    }

    @Test func newMarksAreHandedToTheIndexOnceAndRestoredMarksCount() {
        let marks = BrokenPhotos()
        let error = PickerError(.corruptImage, "a.jpg: corrupt JPEG data: bad Huffman table")
        marks.record(error, version: Self.version(size: 10), photo: Self.photo("a.jpg"))
        marks.record(error, version: Self.version(size: 10), photo: Self.photo("a.jpg"))
        let taken = marks.takeUnsaved()
        #expect(taken == [BrokenMark(path: "A/a.jpg", version: Self.version(size: 10), reason: "corrupt JPEG data: bad Huffman table")])
        #expect(marks.takeUnsaved().isEmpty)
        let restarted = BrokenPhotos()
        restarted.restore(taken)
        #expect(restarted.reason(for: Self.version(size: 10)) == "corrupt JPEG data: bad Huffman table")
        #expect(restarted.takeUnsaved().isEmpty, "restored marks are in the index already")
    }

    /// The decoder's `image_too_large` (a HEIF grid over the cap, a worker at its memory cap) marks the
    /// photo, in memory only: the reason may depend on `--max-megapixels`, so it is not for the index.
    @Test func aTooLargeDecodeMarksThePhotoButIsNotHandedToTheIndex() {
        let marks = BrokenPhotos()
        let error = PickerError(.imageTooLarge, "g.heic: image too large: a grid of 40000 tiles (40000 references) exceeds 1024 tiles")
        #expect(marks.record(error, version: Self.version(size: 10), photo: Self.photo("g.heic")))
        #expect(marks.reason(for: Self.version(size: 10)) == "image too large: a grid of 40000 tiles (40000 references) exceeds 1024 tiles")
        #expect(marks.takeUnsaved().isEmpty)
    }
}
