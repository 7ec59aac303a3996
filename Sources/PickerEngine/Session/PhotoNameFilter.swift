#if canImport(Glibc)
import Glibc
#endif
import PickerProtocol

/// Which photos a session shows: the host app's file-type filter (the portal's `filters`), as
/// case-sensitive globs on the file name (`fnmatch(3)`: `*.png`, `IMG_*.JPG`), the way GTK's
/// chooser matches its patterns. No pattern shows every photo. A session's listings, indexes,
/// steps, grid and counts all see only the photos it admits (`OrderedAlbum`).
public struct PhotoNameFilter: Sendable, Hashable {
    public static let maxPatterns = 64
    public static let maxPatternBytes = 256
    public static let all = PhotoNameFilter([])

    public let patterns: [String]

    public init(_ patterns: [String]) {
        self.patterns = patterns
    }

    public var isEmpty: Bool { patterns.isEmpty }

    /// Whether a photo of this file name is shown.
    public func admits(_ fileName: String) -> Bool {
        patterns.isEmpty || patterns.contains { fnmatch($0, fileName, 0) == 0 }
    }

    /// - Throws: `.invalidArgument` for more than 64 patterns, an empty one, one over 256 bytes or
    ///   one with a control character.
    public static func validate(_ patterns: [String]) throws(PickerError) {
        guard patterns.count <= maxPatterns else {
            throw PickerError(.invalidArgument, "at most \(maxPatterns) filter patterns (got \(patterns.count))")
        }
        for pattern in patterns {
            try SessionRules.validate(text: pattern, what: "filter pattern", maxBytes: maxPatternBytes, empty: false)
        }
    }
}
