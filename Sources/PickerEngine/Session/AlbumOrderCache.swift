import Synchronization

/// Remembers the permutations of recently listed albums, so paging through 100,000 photos
/// in date order sorts once, not once a page. An entry is valid while the album's photo
/// array equals the one it was made from (`==` on arrays sharing storage is O(1)).
///
/// Entries hold their album's photo array, so a changed library could pin old snapshots:
/// the first lookup that finds an album changed drops every entry (a changed library has
/// usually changed All Photos too), and at most `capacity` entries are kept.
final class AlbumOrderCache: Sendable {
    private struct Key: Hashable {
        var album: String
        var order: PhotoSortOrder
        var filter: PhotoNameFilter
    }

    private struct Entry {
        var source: [Photo]
        var permutation: [Int32]?
    }

    /// A few albums in each order: a permutation costs 4 bytes a photo.
    private let capacity = 4
    private let entries = Mutex<[Key: Entry]>([:])

    /// The album in `order`, only the photos `filter` admits, sorting (and filtering) only when
    /// the album changed since it was last sorted.
    func ordered(_ album: Album, _ order: PhotoSortOrder, filter: PhotoNameFilter = .all) -> OrderedAlbum {
        if order == .name, !album.isAllPhotos, filter.isEmpty { return OrderedAlbum(album: album, order: order, permutation: nil) }
        let key = Key(album: album.name, order: order, filter: filter)
        if let permutation = cached(key, album.photos) {
            return OrderedAlbum(album: album, order: order, filter: filter, permutation: permutation)
        }
        // Sorted outside the lock: other sessions' lookups do not wait behind a big sort.
        var permutation = PhotoOrdering.permutation(of: album.photos, isAllPhotos: album.isAllPhotos, order: order)
        if !filter.isEmpty {
            let shown = permutation.map { $0.map(Int.init) } ?? Array(album.photos.indices)
            permutation = shown.filter { filter.admits(album.photos[$0].fileName) }.map { Int32($0) }
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = Entry(source: album.photos, permutation: permutation)
        }
        return OrderedAlbum(album: album, order: order, filter: filter, permutation: permutation)
    }

    /// The permutation made from `photos`, if one is kept; `.some(nil)` means "the array's own order".
    private func cached(_ key: Key, _ photos: [Photo]) -> [Int32]?? {
        entries.withLock { entries -> [Int32]?? in
            guard let hit = entries[key] else { return nil }
            guard hit.source == photos else {
                entries.removeAll()
                return nil
            }
            // Equal content in a new array (a rescan that changed nothing): keep the new one, so
            // the next check is the O(1) same-storage case and the old snapshot is let go.
            entries[key]?.source = photos
            return .some(hit.permutation)
        }
    }
}
