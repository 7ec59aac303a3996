import PickerProtocol

/// Checks on names that clients send (album and photo names). What keeps reads inside the
/// library is `RootDirectory` (files are opened beneath its descriptor); these checks give a
/// clear error early for names that could only escape.
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

    /// Joins a root and a relative path with one "/".
    public static func join(_ root: String, _ relative: String) -> String {
        if relative.isEmpty { return root }
        return root.hasSuffix("/") ? root + relative : root + "/" + relative
    }

    private static func printable(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.value == 0 ? "\\0" : String($0) }.joined())
    }
}
