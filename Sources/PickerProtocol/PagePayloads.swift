/// Parameters of `photosPage`: which rows of the selected album, in the session's order.
public struct PhotosPageRequest: Sendable, Equatable {
    /// Most rows one page may ask for: 10,000 rows of ordinary names stay far below the reply limit.
    public static let maxLimit = 10_000

    public var session: String
    /// 0-based position of the first row.
    public var offset: Int
    /// Most rows to return, 1…10,000.
    public var limit: Int
    /// Ask for the broken marks (the optional trailing flags byte, bit 0): the reply then ends with
    /// the rows known not to decode and why. Sent only when set, so older frames are unchanged.
    public var markBroken: Bool
    public init(session: String, offset: Int, limit: Int, markBroken: Bool = false) {
        self.session = session
        self.offset = offset
        self.limit = limit
        self.markBroken = markBroken
    }

    /// The trailing flags byte's bit for `markBroken`.
    public static let markBrokenFlag: UInt8 = 1
}

/// One page of the selected album's photos, with the total, so a client can page through
/// an album of any size with flat memory.
public struct PhotoPage: Sendable, Equatable {
    public var album: String
    /// The order the rows are in (the session's order when the page was made).
    public var sort: PhotoSort
    /// Photos in the whole album.
    public var total: Int
    /// 0-based position of the first row; its `index` is `offset + 1`.
    public var offset: Int
    public var photos: [PhotoInfo]
    /// The request asked for broken marks: the reply carries the trailing `broken` list (rows whose
    /// `PhotoInfo.broken` is set), possibly empty.
    public var marksBroken: Bool
    public init(album: String, sort: PhotoSort, total: Int, offset: Int, photos: [PhotoInfo],
                marksBroken: Bool = false) {
        self.album = album
        self.sort = sort
        self.total = total
        self.offset = offset
        self.photos = photos
        self.marksBroken = marksBroken
    }
}
