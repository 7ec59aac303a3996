import PickerProtocol

/// Broken photos: a decode failure on any render path marks the photo (by file version), and the
/// mark shows in listings, status, the grid and the pick list's refusal until the file changes.
extension PickerService {
    /// Why `photo` cannot be shown ("too large: …" from its header, or a decode's failure), or nil
    /// when it is within the cap and no decode of its current version has failed.
    func brokenReason(_ photo: Photo) -> String? {
        photo.tooLarge ?? library.broken.reason(for: photo.version)
    }

    /// Records a decode failure of `open` and, the first time, tells subscribers.
    func noteFailure(_ error: PickerError, _ open: OpenPhoto) {
        let isNew = library.broken.record(error, version: open.version, photo: open.photo)
        if isNew { announceBroken(open.photo) }
    }

    /// Runs `body` (a decode of `open`), marking the photo broken when it throws a decode error.
    func markingFailures<T>(_ open: OpenPhoto, _ body: () throws(PickerError) -> T) throws(PickerError) -> T {
        do {
            return try body()
        } catch {
            noteFailure(error, open)
            throw error
        }
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
