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
    /// A photo's path key is made only when it ties with another on the second, and then once
    /// (kept by position): building a key for each of 1,000,000 photos was most of the cost of
    /// assembling a big library, while photos copied together can share a second by thousands.
    public static func sortedNewestFirst(_ photos: [Photo]) -> [Photo] {
        var keys = [NaturalSort.Key?](repeating: nil, count: photos.count)
        func key(_ i: Int) -> NaturalSort.Key {
            if let k = keys[i] { return k }
            let k = NaturalSort.Key(photos[i].relativePath)
            keys[i] = k
            return k
        }
        let order = photos.indices.sorted { i, j in
            let a = photos[i].dateSeconds, b = photos[j].dateSeconds
            if a != b { return a > b }
            return key(i) < key(j)
        }
        return order.map { photos[$0] }
    }
}
