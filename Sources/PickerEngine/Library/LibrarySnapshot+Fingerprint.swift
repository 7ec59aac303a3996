/// A cheap summary of what a scan found, to tell whether a rescan changed anything.
extension LibrarySnapshot {
    public var fingerprint: Int {
        var h = Hasher()
        for album in albums {
            h.combine(album.name)
            h.combine(album.photos.count)
        }
        for photo in albums.first?.photos ?? [] {
            h.combine(photo.relativePath)
            h.combine(photo.byteSize)
            h.combine(photo.mtimeSeconds)
            h.combine(photo.mtimeNanoseconds)
        }
        return h.finalize()
    }
}
