extension LibrarySnapshot {
    /// This snapshot with the photos of some folders replaced, everything else kept as it is: the
    /// albums of other folders untouched, All Photos kept in order with the old photos of those
    /// folders taken out and the new ones inserted where they belong (newest first). At 1,000,000
    /// photos this is what keeps a change in one folder from costing a sort of the whole library.
    /// The root folder ("") is not handled here (its album is named after the root).
    func replacingFolders(_ byFolder: [String: [Photo]], skipped newSkipped: [SkippedEntry],
                          showsRawPairs: Bool = false) -> LibrarySnapshot {
        var gone = Set<ObjectIdentifier>()
        var folderAlbums: [Album] = []
        var seen = Set<String>()
        for album in albums where !album.isAllPhotos {
            guard case .folder(let folder) = album.kind, let photos = byFolder[folder] else {
                folderAlbums.append(album)
                continue
            }
            seen.insert(folder)
            for photo in album.photos { gone.insert(ObjectIdentifier(photo)) }
            if !photos.isEmpty { folderAlbums.append(Album.folder(folder, named: folder, photos, showsRawPairs: showsRawPairs)) }
        }
        for (folder, photos) in byFolder where !seen.contains(folder) && !photos.isEmpty {
            folderAlbums.append(Album.folder(folder, named: folder, photos, showsRawPairs: showsRawPairs))
        }
        let order = LibraryScanner.sortedFolders(folderAlbums.compactMap(\.folderPath))
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        folderAlbums.sort { (position[$0.folderPath ?? ""] ?? 0) < (position[$1.folderPath ?? ""] ?? 0) }

        var all = allPhotos.filter { !gone.contains(ObjectIdentifier($0)) }
        for photo in folderAlbums.filter({ byFolder[$0.folderPath ?? ""] != nil }).flatMap(\.photos) {
            all.insert(photo, at: Album.newestFirstPosition(of: photo, in: all))
        }
        var snapshot = self
        snapshot.albums = [Album(name: Self.allPhotosName, kind: .allPhotos, photos: all)] + folderAlbums
        let dirty = Set(byFolder.keys)
        snapshot.skipped = skipped.filter { !dirty.contains(Self.folder(of: $0.relativePath)) } + newSkipped
        return snapshot
    }

    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }
}

extension Album {
    /// The album of one folder's photos: RAW+JPEG pairs made one photo (unless `showsRawPairs`), the
    /// listed photos in natural file-name order, every record (companions too) in the album `name`.
    static func folder(_ folder: String, named name: String, _ photos: [Photo], showsRawPairs: Bool) -> Album {
        let (listed, companions) = showsRawPairs ? (photos, [:]) : RawPairing.pair(photos)
        return Album(name: name, kind: .folder(relativePath: folder),
                     photos: NaturalSort.sorted(listed) { $0.fileName }.map { $0.inAlbum(name) },
                     rawCompanions: companions.mapValues { $0.inAlbum(name) })
    }

    /// Every file of a folder album: its photos and the RAWs hidden behind them.
    var allFiles: [Photo] { rawCompanions.isEmpty ? photos : photos + rawCompanions.values }

    /// The folder's path for a folder album, nil for All Photos.
    var folderPath: String? {
        if case .folder(let path) = kind { return path }
        return nil
    }

    /// Where `photo` goes in a newest-first list (binary search with `sortedNewestFirst`'s order).
    static func newestFirstPosition(of photo: Photo, in photos: [Photo]) -> Int {
        let key = NaturalSort.Key(photo.relativePath)
        var low = 0, high = photos.count
        while low < high {
            let mid = (low + high) / 2
            let other = photos[mid]
            let before = other.dateSeconds != photo.dateSeconds
                ? other.dateSeconds > photo.dateSeconds
                : NaturalSort.Key(other.relativePath) < key
            if before { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
