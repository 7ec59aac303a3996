import PickerProtocol

/// One named picker session: pane, title, selected album, current photo and pick list.
/// A value type; `SessionStore` owns the live copies.
public struct Session: Codable, Sendable, Equatable {
    public static let defaultTitle = "Photo Library"
    public static let defaultMaxSelection = 10
    public static let paneRange = SessionRules.paneRange
    public static let maxSelectionRange = SessionRules.maxSelectionRange

    public var name: String
    public var title: String
    public var width: Int
    public var height: Int?
    public var maxSelection: Int
    /// Selected album's name ("All Photos" or a relative folder path).
    public var album: String?
    /// Current photo's path relative to the library root (identifies it across albums).
    public var photo: String?
    /// Picked photos' paths relative to the root, in pick order.
    public var selection: [String]
    /// The photo order the user chose; nil (sessions saved before there was a choice) is `name`.
    /// An unknown value in `sessions.json` fails to decode, so that entry is dropped.
    public var sort: PhotoSortOrder?
    /// How a client last finished the session (`SessionOutcome`'s raw value); nil while open. Any later
    /// change opens it again. Sessions saved before there was finishing decode as open.
    public var finished: UInt8?
    /// The file-name globs of the photos this session shows (`PhotoNameFilter`: the portal's
    /// `filters`); nil shows every photo, and a session without one is saved as before.
    public var filter: [String]?
    /// The host app's toggles (the portal's `choices`) with their values now; nil when it asked for none,
    /// so a session without any is saved as before.
    public var choices: [SessionChoice]?

    /// The order listings, indexes, `next`/`prev` and the grid follow.
    public var order: PhotoSortOrder { sort ?? .name }

    /// The photos listings, indexes, `next`/`prev` and the grid show.
    public var photoFilter: PhotoNameFilter { PhotoNameFilter(filter ?? []) }

    /// Validates and creates a session (the rules are `SessionRules`).
    /// - Throws: `.outOfRange` for a pane outside 16…8192 px or a bad selection limit; `.invalidName` for a bad
    ///   name; `.invalidArgument` for a title with control characters or over 256 bytes.
    public init(_ request: NewSession) throws(PickerError) {
        try SessionRules.validate(name: request.name)
        try SessionRules.validatePane(width: request.width, height: request.height)
        let maxSel = request.maxSelection ?? Session.defaultMaxSelection
        try SessionRules.validate(maxSelection: maxSel)
        if let title = request.title { try SessionRules.validate(title: title) }
        try ChoiceRules.validate(request.choices)
        try PhotoNameFilter.validate(request.filter)
        name = request.name
        title = request.title ?? Session.defaultTitle
        width = request.width
        height = request.height
        maxSelection = maxSel
        album = nil
        photo = nil
        selection = []
        sort = nil
        finished = nil
        filter = request.filter.isEmpty ? nil : request.filter
        choices = request.choices.isEmpty ? nil : request.choices
    }

    /// - Throws: `.outOfRange` naming the range.
    public static func validatePane(width: Int, height: Int?) throws(PickerError) {
        try SessionRules.validatePane(width: width, height: height)
    }
}
