import PickerProtocol

/// A camera's RAW+JPEG pair shown as one photo, as Photos and Lightroom do: in one folder, a file of
/// format RAW and a file of format JPEG (formats from the bytes, as everywhere in the library) whose
/// names are equal up to their last dot are one photo — the JPEG is listed, the RAW is its companion
/// (`photoInfo` names it). Stems compare exactly (cameras write both names in the same case);
/// the extensions are not compared at all, so `IMG_1.CR2` pairs with `IMG_1.JPG` and `IMG_1.jpg`.
/// A stem with more than one RAW or more than one JPEG (`IMG_1.CR2`, `IMG_1.DNG`, `IMG_1.JPG`)
/// pairs nothing: every file is listed, rather than guess which belongs to which.
/// Only JPEG stands in for a RAW (RAW+HEIC from newer cameras lists both). `pickerd --show-raw-pairs`
/// turns pairing off.
public enum RawPairing {
    /// The part of a file name before its last dot; nil for a name without a dot or with nothing before it.
    static func stem(of fileName: String) -> Substring? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        return fileName[..<dot]
    }

    /// One folder's photos split into the listed ones (input order kept) and the RAWs hidden behind
    /// a JPEG, keyed by that JPEG's relative path.
    /// - Parameter photos: the photos lying directly in one folder.
    public static func pair(_ photos: [Photo]) -> (listed: [Photo], companions: [String: Photo]) {
        // Most folders hold no RAW: one pass, no dictionaries (a 1,000,000-photo scan pays nothing more).
        guard photos.contains(where: { $0.format == .raw }) else { return (photos, [:]) }
        var raws: [Substring: [Photo]] = [:], jpegs: [Substring: [Photo]] = [:]
        for photo in photos {
            guard photo.format == .raw || photo.format == .jpeg, let stem = stem(of: photo.fileName) else { continue }
            if photo.format == .raw { raws[stem, default: []].append(photo) } else { jpegs[stem, default: []].append(photo) }
        }
        var companions: [String: Photo] = [:]
        var hidden = Set<ObjectIdentifier>()
        for (stem, found) in raws {
            guard found.count == 1, let raw = found.first, let twins = jpegs[stem], twins.count == 1,
                  let jpeg = twins.first else { continue }
            companions[jpeg.relativePath] = raw
            hidden.insert(ObjectIdentifier(raw))
        }
        guard !hidden.isEmpty else { return (photos, [:]) }
        return (photos.filter { !hidden.contains(ObjectIdentifier($0)) }, companions)
    }
}

extension LibrarySnapshot {
    /// The RAW listed as one photo with `photo` (its JPEG), if any.
    public func rawCompanion(of photo: Photo) -> Photo? {
        for album in albums where !album.rawCompanions.isEmpty && album.name == photo.albumName {
            return album.rawCompanions[photo.relativePath]
        }
        return nil
    }

    /// Every file indexed, by relative path: the listed photos and the RAWs hidden behind a JPEG
    /// (a rescan reuses their headers and reports their changes like any photo's).
    func filesByPath() -> [String: Photo] {
        var index: [String: Photo] = [:]
        index.reserveCapacity(allPhotos.count)
        for photo in allPhotos { index[photo.relativePath] = photo }
        for album in albums where !album.rawCompanions.isEmpty {
            for photo in album.rawCompanions.values { index[photo.relativePath] = photo }
        }
        return index
    }
}
