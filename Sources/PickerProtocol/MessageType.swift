/// Every frame type. Mostly a request is even and its own reply the next odd number;
/// the exceptions: `hello` (0x01) is answered by `helloReply` (0x02), `error` (0x03) answers
/// any request, and `sessionState` (0x11) answers every request that shows or changes one session.
/// 0x80 and above are events. Numbers are never reused.
public enum MessageType: UInt8, Sendable, CaseIterable {
    case hello = 0x01
    case helloReply = 0x02
    case error = 0x03
    case ping = 0x04
    case pong = 0x05
    case libraryInfo = 0x06
    case libraryInfoReply = 0x07
    case scanProgress = 0x08
    case scanProgressReply = 0x09

    case sessionNew = 0x10
    case sessionState = 0x11
    case sessionList = 0x12
    case sessionListReply = 0x13
    case sessionShow = 0x14
    case sessionResize = 0x16
    case sessionClose = 0x18
    case sessionClosed = 0x19

    case albums = 0x20
    case albumsReply = 0x21
    case selectAlbum = 0x22
    case photos = 0x24
    case photosReply = 0x25
    case selectPhoto = 0x26
    case stepPhoto = 0x28
    case status = 0x2A
    case setSort = 0x2C
    case photosPage = 0x2E
    case photosPageReply = 0x2F

    case getImage = 0x30
    case image = 0x31
    case photoInfo = 0x32
    case photoInfoReply = 0x33

    case toggle = 0x40
    case selection = 0x42
    case selectionReply = 0x43
    case clearSelection = 0x44
    case thumbnails = 0x46
    case thumbnailsReply = 0x47
    case preview = 0x48

    case subscribe = 0x50
    case subscribed = 0x51
    case cancel = 0x52
    case cancelReply = 0x53
    /// Finishes a session as accepted or cancelled (answered by `sessionState`).
    case sessionFinish = 0x54
    /// A session's choices and their values now (answered by `choicesReply`).
    case choices = 0x56
    case choicesReply = 0x57
    /// Sets one of a session's choices (answered by `choicesReply`).
    case setChoice = 0x58

    // Events: server-initiated, high bit set, never a reply.
    case sessionEvent = 0x80
    case libraryEvent = 0x81
    case libraryChangesEvent = 0x82
    case scanProgressEvent = 0x83
}

extension MessageType {
    /// Declarations indexed by their type number (nil where none is declared): one lookup a frame.
    static func table<D>(_ declarations: [D], _ type: KeyPath<D, MessageType>) -> [D?] {
        var table = [D?](repeating: nil, count: 256)
        for d in declarations { table[Int(d[keyPath: type].rawValue)] = d }
        return table
    }
}
