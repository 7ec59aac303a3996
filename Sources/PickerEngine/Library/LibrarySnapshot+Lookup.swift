import PickerProtocol

extension LibrarySnapshot {
    /// The album with this name ("All Photos", "2024/Kyoto", ...). An exact match wins;
    /// otherwise a unique case-insensitive match is accepted.
    /// - Throws: `.invalidName` for a refused name, `.noSuchAlbum` saying how many albums exist.
    public func album(named name: String) throws(PickerError) -> Album {
        let clean = try LibraryPath.validatedName(name, what: "album")
        if let album = albums.first(where: { $0.name == clean }) { return album }
        let folded = clean.lowercased()
        let loose = albums.filter { $0.name.lowercased() == folded }
        if loose.count == 1, let album = loose.first { return album }
        throw PickerError(.noSuchAlbum, "no album '\(name)' (\(albumCountText))")
    }

    /// The album at a 1-based index ("All Photos" is 1).
    /// - Throws: `.noSuchAlbum` when out of range.
    public func album(atIndex index: Int) throws(PickerError) -> Album {
        guard index >= 1, index <= albums.count else {
            throw PickerError(.noSuchAlbum,
                              "no album number \(index) (\(albumCountText), numbered from 1)")
        }
        return albums[index - 1]
    }

    private var albumCountText: String { albums.count == 1 ? "1 album" : "\(albums.count) albums" }
}

extension Album {
    /// The photo with this name: its relative path ("2024/Kyoto/IMG_1.jpg"), or its file name
    /// (in "All Photos" only when no other photo there has the same file name).
    /// A unique case-insensitive match is accepted when there is no exact one.
    /// - Throws: `.invalidName` for a refused name, `.invalidArgument` for an ambiguous one,
    ///   `.noSuchPhoto` saying how many photos the album has.
    public func photo(named name: String) throws(PickerError) -> Photo {
        let clean = try LibraryPath.validatedName(name, what: "photo")
        if let photo = photos.first(where: { $0.relativePath == clean }) { return photo }
        let exact = photos.filter { $0.fileName == clean }
        if exact.count == 1, let photo = exact.first { return photo }
        if exact.count > 1 {
            let example = exact.first?.relativePath ?? clean
            throw PickerError(.invalidArgument,
                              "\(exact.count) photos in '\(self.name)' are named '\(name)'; give the path (e.g. '\(example)') or use --index")
        }
        let folded = clean.lowercased()
        let loose = photos.filter {
            $0.fileName.lowercased() == folded || (isAllPhotos && $0.relativePath.lowercased() == folded)
        }
        if loose.count == 1, let photo = loose.first { return photo }
        throw PickerError(.noSuchPhoto, "no photo '\(name)' in album '\(self.name)' (\(photoCountText))")
    }

    /// The photo at a 1-based index in this album's order.
    /// - Throws: `.noSuchPhoto` when out of range.
    public func photo(atIndex index: Int) throws(PickerError) -> Photo {
        guard index >= 1, index <= photos.count else {
            throw PickerError(.noSuchPhoto,
                              "no photo number \(index) in album '\(name)' (\(photoCountText), numbered from 1)")
        }
        return photos[index - 1]
    }

    /// The 1-based index of the photo with this relative path, if the album holds it.
    public func index(ofPhotoAt relativePath: String) -> Int? {
        photos.firstIndex { $0.relativePath == relativePath }.map { $0 + 1 }
    }

    private var photoCountText: String { photos.count == 1 ? "1 photo" : "\(photos.count) photos" }
}
