import PickerProtocol

extension PictureDecoding {
    /// `decode(open, request)`, and when it fails in a way that means the photo itself cannot be
    /// shown (`BrokenPhotos.marksBroken`), the photo's version is recorded broken in `broken`;
    /// `newlyBroken` is called the first time it is (an event is due).
    ///
    /// The one place a render path marks a photo broken (get-image, preview, prefetch, grid cells):
    /// only the decoder's own failures pass through here. What happens around a decode — the work
    /// budget's refusal of a job larger than `--memory-mb`, a wait that is cancelled, the pane's
    /// canvas, the encoder — is about the daemon or the request, not the file, and never marks it.
    func decode(_ open: OpenPhoto, _ request: DecodeRequest, markingBrokenIn broken: BrokenPhotos,
                newlyBroken: (Photo) -> Void) throws(PickerError) -> PixelImage {
        try marking(open, broken, newlyBroken) { () throws(PickerError) in try decode(open, request) }
    }

    /// `decodePixels(open, request)`, marking the photo broken as `decode(_:_:markingBrokenIn:newlyBroken:)` does.
    func decodePixels(_ open: OpenPhoto, _ request: DecodeRequest, markingBrokenIn broken: BrokenPhotos,
                      newlyBroken: (Photo) -> Void) throws(PickerError) -> DecodedPixels {
        try marking(open, broken, newlyBroken) { () throws(PickerError) in try decodePixels(open, request) }
    }

    private func marking<T>(_ open: OpenPhoto, _ broken: BrokenPhotos, _ newlyBroken: (Photo) -> Void,
                            _ body: () throws(PickerError) -> T) throws(PickerError) -> T {
        do {
            return try body()
        } catch {
            if broken.record(error, version: open.version, photo: open.photo) { newlyBroken(open.photo) }
            throw error
        }
    }
}
