/// An album: the virtual "All Photos", or a folder that directly holds supported images.
public struct Album: Sendable, Equatable {
    /// What the album stands for.
    public enum Kind: Sendable, Equatable {
        /// Every photo of the library, newest first.
        case allPhotos
        /// A folder; `relativePath` is "" for the library root itself.
        case folder(relativePath: String)
    }

    /// The name users see and select by: "All Photos", a relative path such as "2024/Kyoto",
    /// or the root folder's own name for photos lying directly in the root.
    public var name: String
    /// Virtual "All Photos" or a folder.
    public var kind: Kind
    /// Photos in display order: natural file-name order for a folder, newest first for All Photos.
    public var photos: [Photo]
    /// For a folder album: the RAWs of RAW+JPEG pairs, hidden from `photos`, keyed by the relative
    /// path of the JPEG listed for them (`RawPairing`). Empty for All Photos and with `--show-raw-pairs`.
    public var rawCompanions: [String: Photo]

    /// Makes an album; `photos` must already be in display order.
    public init(name: String, kind: Kind, photos: [Photo], rawCompanions: [String: Photo] = [:]) {
        self.name = name
        self.kind = kind
        self.photos = photos
        self.rawCompanions = rawCompanions
    }

    /// True for the virtual "All Photos" album.
    public var isAllPhotos: Bool { kind == .allPhotos }
}
