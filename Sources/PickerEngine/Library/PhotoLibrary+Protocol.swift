import PickerProtocol

// Adapters from the wire types (`Selector`, `LibraryInfo`) to the library's lookups.

extension PhotoLibrary {
    /// Root, counts and scan state for the `library` command. `scanning` until the first scan (or the
    /// check of the index) is done; the quick rescans after changes on disk do not count: the view is
    /// complete then, and they announce what changed.
    public var info: LibraryInfo {
        let snapshot = self.snapshot
        return LibraryInfo(root: snapshot.root, albumCount: snapshot.albumCount, photoCount: snapshot.photoCount,
                           scanState: snapshot.hasBeenScanned ? .ready : .scanning, scannedAt: snapshot.scannedAtSeconds,
                           skippedCount: snapshot.unindexedImageCount)
    }

    /// How far the scan has got, for `scanProgress`. Never `ready` while `info` says scanning: before
    /// the first scan has begun the meter has nothing running, yet the library is not ready
    /// (a client polling this once concluded so in the first ~40 ms after start-up).
    public var scanProgress: ScanProgress {
        var progress = self.progress.current
        if !snapshot.hasBeenScanned { progress.state = .scanning }
        return progress
    }

    /// The album picked by name or by 1-based index ("All Photos" is 1).
    /// - Throws: `.invalidName` for a refused name, `.noSuchAlbum` saying how many albums exist.
    public func album(_ selector: Selector) throws(PickerError) -> Album {
        try snapshot.album(selector)
    }
}

extension LibrarySnapshot {
    /// The album picked by name or by 1-based index.
    public func album(_ selector: Selector) throws(PickerError) -> Album {
        switch selector {
        case .name(let name): return try album(named: name)
        case .index(let index): return try album(atIndex: index)
        }
    }
}

extension Album {
    /// The photo picked by name (file name or relative path) or by 1-based index in this album.
    /// - Throws: `.invalidName`, `.invalidArgument` (ambiguous name) or `.noSuchPhoto`.
    public func photo(_ selector: Selector) throws(PickerError) -> Photo {
        switch selector {
        case .name(let name): return try photo(named: name)
        case .index(let index): return try photo(atIndex: index)
        }
    }
}
