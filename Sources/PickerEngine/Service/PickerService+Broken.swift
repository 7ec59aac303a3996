import PickerProtocol

/// Broken photos: a decoder failure on any render path marks the photo (by file version; which
/// failures count is `BrokenPhotos.marksBroken`), and the mark shows in listings, status, the grid
/// and the pick list's refusal until the file changes.
extension PickerService {
    /// Why `photo` cannot be shown ("too large: …" from its header, or a decode's failure), or nil
    /// when it is within the cap and no decode of its current version has failed.
    func brokenReason(_ photo: Photo) -> String? {
        photo.tooLarge ?? library.broken.reason(for: photo.version)
    }

    /// The pixels of `request` from `open`, marking the photo broken when the decoder's failure
    /// means it cannot be shown (`PictureDecoding.decode(_:_:markingBrokenIn:newlyBroken:)`).
    func decodeMarkingBroken(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> PixelImage {
        try decoder.decode(open, request, markingBrokenIn: library.broken) { announceBroken($0) }
    }

    /// As `decodeMarkingBroken`, the pixels as they arrive (`PictureDecoding.decodePixels`).
    func decodePixelsMarkingBroken(_ open: OpenPhoto, _ request: DecodeRequest) throws(PickerError) -> DecodedPixels {
        try decoder.decodePixels(open, request, markingBrokenIn: library.broken) { announceBroken($0) }
    }

    /// A photo just found broken: library subscribers get a `libraryChangesEvent` naming it under
    /// `changed` (its listing row changed), and each session whose current photo it is a `photo`
    /// event (its status message now says why it cannot be shown).
    func announceBroken(_ photo: Photo) {
        events(.libraryChanges(LibraryChanges(changed: [photo.relativePath])))
        for session in sessions.all() where session.photo == photo.relativePath {
            events(.session(.photo, state(of: session)))
        }
    }
}
