import PickerProtocol

/// What one rescan changed: photos added, removed and changed (relative paths) — the wire's
/// `LibraryChanges`, one type for the concept. "Changed": same path, another file or another version
/// of it (device, inode, size or mtime), or a new header.
public typealias LibraryChangeSet = LibraryChanges

extension LibraryChanges {
    /// The difference between two indexes by relative path.
    public init(from old: [String: Photo], to new: [String: Photo]) {
        var added: [String] = [], removed: [String] = [], changed: [String] = []
        for (path, photo) in new {
            guard let before = old[path] else { added.append(path); continue }
            if before.version != photo.version || before.header != photo.header || before.targetPath != photo.targetPath {
                changed.append(path)
            }
        }
        for path in old.keys where new[path] == nil { removed.append(path) }
        let order: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.init(added: added.sorted(by: order), removed: removed.sorted(by: order), changed: changed.sorted(by: order))
    }

    /// Each list in byte order of its paths (what events announce).
    public func sorted() -> LibraryChangeSet {
        let order: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return LibraryChangeSet(added: added.sorted(by: order), removed: removed.sorted(by: order),
                                changed: changed.sorted(by: order))
    }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
}
