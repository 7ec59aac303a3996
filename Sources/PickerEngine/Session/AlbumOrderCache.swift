import Synchronization

/// Remembers the permutations of recently listed albums, so paging through 100,000 photos
/// in date order sorts once, not once a page. An entry is valid while the album's photo
/// array is the one it was made from (`==` on arrays that share storage is O(1)).
final class AlbumOrderCache: Sendable {
    private struct Key: Hashable {
        var album: String
        var order: PhotoSortOrder
    }

    private struct Entry {
        var source: [Photo]
        var permutation: [Int32]?
    }

    /// A few albums in each order: a permutation costs 4 bytes a photo.
    private let capacity = 8
    private let entries = Mutex<[Key: Entry]>([:])

    /// The album in `order`, sorting only when the album changed since it was last sorted.
    func ordered(_ album: Album, _ order: PhotoSortOrder) -> OrderedAlbum {
        if order == .name, !album.isAllPhotos { return OrderedAlbum(album: album, order: order, permutation: nil) }
        let key = Key(album: album.name, order: order)
        if let hit = entries.withLock({ $0[key] }), hit.source == album.photos {
            return OrderedAlbum(album: album, order: order, permutation: hit.permutation)
        }
        // Sorted outside the lock: other sessions' lookups do not wait behind a big sort.
        let permutation = PhotoOrdering.permutation(of: album.photos, isAllPhotos: album.isAllPhotos, order: order)
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(source: album.photos, permutation: permutation)
        }
        return OrderedAlbum(album: album, order: order, permutation: permutation)
    }
}
