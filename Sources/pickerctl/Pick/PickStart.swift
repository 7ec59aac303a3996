import PickerProtocol

/// Where pick opens (issue 24): `--album`/`--photo` when given; else the session's own album and photo;
/// else the album last used with this session name, or the first album; always with a photo current
/// when the album has one, so the picture pane is never empty at the start.
struct PickStart {
    var session: SessionState
    /// Whether the album was pick's fallback (the first one): the album list then has the focus, as the
    /// user has yet to choose; otherwise the photo list has it.
    var albumIsFallback: Bool

    static func open(_ state: SessionState, album: String?, photo: String?, remembered: String?,
                     daemon: PickDaemon) throws(CLIError) -> PickStart {
        var state = state
        var fallback = false
        if let album {
            state = try daemon.state(.selectAlbum(session: daemon.session, .name(album)))
        } else if state.album == nil, let (name, isRemembered) = try startAlbum(remembered: remembered, daemon: daemon) {
            state = try daemon.state(.selectAlbum(session: daemon.session, .name(name)))
            fallback = !isRemembered
        }
        if let photo {
            state = try daemon.state(.selectPhoto(session: daemon.session, .name(photo)))
        } else if state.photo == nil, state.album != nil, state.photoCount > 0 {
            state = try daemon.state(.selectPhoto(session: daemon.session, .index(firstPhotoIndex)))
        }
        return PickStart(session: state, albumIsFallback: fallback && photo == nil)
    }

    /// Photo indices are 1-based, as `select-photo --index` and the photo list have them.
    static let firstPhotoIndex = 1

    /// The remembered album while it still exists, else the first album of the library.
    private static func startAlbum(remembered: String?, daemon: PickDaemon) throws(CLIError) -> (String, remembered: Bool)? {
        let albums = try daemon.albums()
        if let remembered, albums.contains(where: { $0.name == remembered }) { return (remembered, true) }
        return albums.first.map { ($0.name, false) }
    }
}
