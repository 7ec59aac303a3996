/// How an album's photos are listed (`photos --sort`).
public enum PhotoSortOrder: String, Sendable, CaseIterable {
    /// Natural file-name order (the album's own order).
    case name
    /// By capture date, oldest first: photos with EXIF DateTimeOriginal in date order,
    /// then photos without one in natural file-name order; remaining ties by mtime.
    case date
}

extension Album {
    /// The album's photos in the given order.
    public func photos(sortedBy order: PhotoSortOrder) -> [Photo] {
        switch order {
        case .name: return photos
        case .date: return photosByCaptureDate()
        }
    }

    /// The album's photos by capture date (`photos --sort date`); see `sortedByCaptureDate(_:)`.
    public func photosByCaptureDate() -> [Photo] {
        Album.sortedByCaptureDate(photos)
    }

    /// Photos ordered by capture date: EXIF DateTimeOriginal (local time read as UTC) first,
    /// oldest first; photos without EXIF date follow in natural name order (a camera's file
    /// numbers follow capture order); ties by mtime, then by relative path.
    ///
    /// EXIF-dated and undated photos are not interleaved by mtime: an mtime is often a copy
    /// or edit time, and mixing two clocks would make the order jump around.
    public static func sortedByCaptureDate(_ photos: [Photo]) -> [Photo] {
        let keyed = photos.map { (name: NaturalSort.Key($0.fileName), path: NaturalSort.Key($0.relativePath), photo: $0) }
        return keyed.sorted { a, b in
            let pa = a.photo, pb = b.photo
            if pa.dateIsFromExif != pb.dateIsFromExif { return pa.dateIsFromExif }
            if pa.dateIsFromExif, pa.dateSeconds != pb.dateSeconds { return pa.dateSeconds < pb.dateSeconds }
            let byName = NaturalSort.compare(a.name, b.name)
            if byName != 0 { return byName < 0 }
            if pa.mtimeSeconds != pb.mtimeSeconds { return pa.mtimeSeconds < pb.mtimeSeconds }
            if pa.mtimeNanoseconds != pb.mtimeNanoseconds { return pa.mtimeNanoseconds < pb.mtimeNanoseconds }
            return a.path < b.path
        }.map(\.photo)
    }

    /// Photos newest first by `dateSeconds` (EXIF date, else mtime), ties in natural path order:
    /// the order of "All Photos".
    public static func sortedNewestFirst(_ photos: [Photo]) -> [Photo] {
        let keyed = photos.map { (path: NaturalSort.Key($0.relativePath), photo: $0) }
        return keyed.sorted { a, b in
            if a.photo.dateSeconds != b.photo.dateSeconds { return a.photo.dateSeconds > b.photo.dateSeconds }
            return a.path < b.path
        }.map(\.photo)
    }
}
