import PickerProtocol

/// Checks on names that clients send (album and photo names) and on paths read from disk,
/// so that nothing outside the library root is ever read.
public enum LibraryPath {
    /// Validates a client-supplied album or photo name and returns it normalised
    /// (empty and "." segments removed, so "2024//Kyoto/" names "2024/Kyoto").
    /// - Parameters:
    ///   - name: the name as received.
    ///   - what: "album" or "photo", for the message.
    /// - Throws: `PickerError(.invalidName)` for an empty name, a NUL byte, an absolute path or
    ///   any ".." segment.
    public static func validatedName(_ name: String, what: String = "name") throws(PickerError) -> String {
        if name.isEmpty {
            throw PickerError(.invalidName, "the \(what) name is empty")
        }
        if name.utf8.contains(0) {
            throw PickerError(.invalidName, "the \(what) name '\(printable(name))' contains a NUL byte")
        }
        if name.hasPrefix("/") {
            throw PickerError(.invalidName, "the \(what) name '\(name)' is an absolute path; give a name inside the library")
        }
        let segments = name.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains("..") {
            throw PickerError(.invalidName, "the \(what) name '\(name)' contains '..'; names may not leave the library")
        }
        let kept = segments.filter { $0 != "." }
        if kept.isEmpty {
            throw PickerError(.invalidName, "'\(name)' is not a valid \(what) name")
        }
        return kept.joined(separator: "/")
    }

    /// True when `path` (already resolved with realpath) is `root` or lies below it.
    public static func isInside(_ path: String, root: String) -> Bool {
        if path == root { return true }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix)
    }

    /// Joins a root and a relative path with one "/".
    public static func join(_ root: String, _ relative: String) -> String {
        if relative.isEmpty { return root }
        return root.hasSuffix("/") ? root + relative : root + "/" + relative
    }

    /// Resolves `relativePath` under `rootRealPath` with realpath and checks that the result
    /// stays inside the root.
    /// - Returns: the resolved absolute path.
    /// - Throws: `.invalidName` for a bad name or one that resolves outside the root,
    ///   `.noSuchPhoto` when nothing is there, `.ioError` otherwise.
    public static func resolveInside(rootRealPath: String, relativePath: String) throws(PickerError) -> String {
        let clean = try validatedName(relativePath, what: "photo")
        switch LibrarySys.realPath(join(rootRealPath, clean)) {
        case .success(let real):
            guard isInside(real, root: rootRealPath) else {
                throw PickerError(.invalidName, "'\(relativePath)' leads outside the library")
            }
            return real
        case .failure(let e):
            if e.isNotFound {
                throw PickerError(.noSuchPhoto, "'\(relativePath)' is no longer in the library (moved or deleted?)")
            }
            throw PickerError(.ioError, "cannot resolve '\(relativePath)': \(e.description)")
        }
    }

    private static func printable(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.value == 0 ? "\\0" : String($0) }.joined())
    }
}
