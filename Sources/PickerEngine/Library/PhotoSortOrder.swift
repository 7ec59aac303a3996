/// A session's photo order (`pickerctl sort`). The orders themselves are defined once, in
/// `PhotoOrdering` (Session/SessionPhotoOrder.swift).
public enum PhotoSortOrder: String, Sendable, CaseIterable {
    /// Natural file-name order (in All Photos: natural relative-path order).
    case name
    /// By capture date, newest first; photos without EXIF DateTimeOriginal after the dated ones.
    case date
}

extension Album {
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
