#if canImport(Glibc)
import Glibc
#endif

/// One entry of FileChooser's `filters`: a name and patterns, wire `(sa(us))`. A pattern of kind
/// 0 is a case-sensitive glob on the file name, kind 1 a MIME type (`image/*` allowed).
public struct FileFilter: Equatable, Sendable {
    public enum Pattern: Equatable, Sendable {
        case glob(String)
        case mime(String)
        /// A kind a newer frontend may send: kept, matches nothing.
        case unknown(kind: UInt32, String)
    }
    public var name: String
    public var patterns: [Pattern]

    public init(name: String, patterns: [Pattern]) {
        self.name = name
        self.patterns = patterns
    }

    /// Reads `(sa(us))`; nil when the value has another shape.
    public init?(_ value: DBusValue) {
        guard case .structure(let fields) = value, fields.count == 2, case .string(let name) = fields[0],
              case .array(_, let items) = fields[1] else { return nil }
        var patterns: [Pattern] = []
        for item in items {
            guard case .structure(let pair) = item, pair.count == 2, case .uint32(let kind) = pair[0],
                  case .string(let text) = pair[1] else { return nil }
            switch kind {
            case 0: patterns.append(.glob(text))
            case 1: patterns.append(.mime(text))
            default: patterns.append(.unknown(kind: kind, text))
            }
        }
        self.init(name: name, patterns: patterns)
    }

    /// As the wire has it, for the reply's `current_filter`.
    public var value: DBusValue {
        .structure([.string(name), .array(element: "(us)", patterns.map { pattern in
            switch pattern {
            case .glob(let g): return .structure([.uint32(0), .string(g)])
            case .mime(let m): return .structure([.uint32(1), .string(m)])
            case .unknown(let kind, let s): return .structure([.uint32(kind), .string(s)])
            }
        })])
    }

    /// Whether a photo file named `fileName` passes this filter. Globs follow fnmatch (case-sensitive,
    /// as the portal specifies); a MIME type is matched by the name's extension, as GIO guesses a
    /// type; `image/*` passes every photo (pickerd lists only images).
    public func matches(fileName: String) -> Bool {
        patterns.contains { pattern in
            switch pattern {
            case .glob(let glob): return fnmatch(glob, fileName, 0) == 0
            case .mime(let mime): return PhotoMIMETypes.matches(mime: mime, fileName: fileName)
            case .unknown: return false
            }
        }
    }

    /// The filter as file-name globs for the session (`NewSession.filter`), so pick and every client
    /// see only the photos it passes: globs as they are, MIME types as their extensions' globs.
    public var sessionGlobs: [String] {
        patterns.flatMap { pattern -> [String] in
            switch pattern {
            case .glob(let glob): return [glob]
            case .mime(let mime): return PhotoMIMETypes.globs(mime: mime)
            case .unknown: return []
            }
        }
    }

    /// Whether some photo pickerd could list passes this filter: a request whose filters all fail this
    /// asks for something that is not a photo.
    public var acceptsSomePhoto: Bool {
        PhotoMIMETypes.sampleNames.contains { matches(fileName: $0) }
    }

    /// Whether every photo passes (`image/*`, `*`, `*.*`): then the filter restricts nothing.
    public var acceptsEveryPhoto: Bool {
        PhotoMIMETypes.sampleNames.allSatisfy { matches(fileName: $0) }
    }
}
