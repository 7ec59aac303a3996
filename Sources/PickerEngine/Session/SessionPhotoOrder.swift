import PickerProtocol

extension PhotoSortOrder: Codable {}

extension PhotoSortOrder {
    /// The engine's order for a wire sort value.
    public init(_ sort: PhotoSort) {
        self = sort == .date ? .date : .name
    }

    /// The wire value for this order.
    public var wire: PhotoSort { self == .date ? .date : .name }
}

/// How a session's order arranges an album's photos. The one definition of both orders:
/// listings, `--index`, `next`/`prev`, the grid and the current photo's index all go through it.
///
/// - `name`: natural file-name order (`IMG_2` before `IMG_10`); All Photos keeps its own order,
///   newest first (SPEC: "All Photos (every photo, newest first)"), since names repeat across folders.
/// - `date`: newest first by EXIF DateTimeOriginal (read as UTC). Photos without one follow all dated
///   photos, in natural name (path) order, as are photos of the same EXIF second. Undated photos are
///   not placed by mtime among dated ones: an mtime is usually a copy time, and mixing two clocks would
///   scatter them.
enum PhotoOrdering {
    /// Positions into `photos` (as `Int32`: 4 bytes a photo) in the given order; nil when the
    /// order is the array's own (a folder album by name).
    static func permutation(of photos: [Photo], isAllPhotos: Bool, order: PhotoSortOrder) -> [Int32]? {
        switch order {
        case .name:
            return nil  // folder albums are stored by name; All Photos newest first
        case .date:
            let keys = photos.map { NaturalSort.Key($0.relativePath) }
            return positions(photos.count).sorted { i, j in
                comesFirstByDate(photos[Int(i)], keys[Int(i)], photos[Int(j)], keys[Int(j)])
            }
        }
    }

    private static func positions(_ n: Int) -> [Int32] { (0..<Int32(clamping: n)).map { $0 } }

    private static func comesFirstByDate(_ a: Photo, _ ka: NaturalSort.Key, _ b: Photo, _ kb: NaturalSort.Key) -> Bool {
        if a.dateIsFromExif != b.dateIsFromExif { return a.dateIsFromExif }
        if a.dateIsFromExif, a.dateSeconds != b.dateSeconds { return a.dateSeconds > b.dateSeconds }
        // Natural order is total (raw bytes break its ties), so the mtime never decides here.
        return NaturalSort.compare(ka, kb) < 0
    }
}

extension Album {
    /// The album's photos in `order` (see `PhotoOrdering`); sorts every call, so the service goes
    /// through its `AlbumOrderCache` instead.
    public func photos(sortedBy order: PhotoSortOrder) -> [Photo] {
        guard let permutation = PhotoOrdering.permutation(of: photos, isAllPhotos: isAllPhotos, order: order) else {
            return photos
        }
        return permutation.map { photos[Int($0)] }
    }
}
