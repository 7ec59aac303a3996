import PickerProtocol

/// One named picker session: pane, title, selected album, current photo and pick list.
/// A value type; `SessionStore` owns the live copies.
public struct Session: Codable, Sendable, Equatable {
    public static let defaultTitle = "Photo Library"
    public static let defaultMaxSelection = 10
    public static let paneRange = 16...8192
    public static let maxSelectionRange = 1...1000

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

    /// Validates and creates a session.
    /// - Throws: `.outOfRange` for a pane outside 16…8192 px or a bad selection limit; `.invalidName` for a bad name.
    public init(_ request: NewSession) throws(PickerError) {
        try Session.validate(name: request.name)
        try Session.validatePane(width: request.width, height: request.height)
        let maxSel = request.maxSelection ?? Session.defaultMaxSelection
        guard Session.maxSelectionRange.contains(maxSel) else {
            throw PickerError(.outOfRange, "max selection \(maxSel) is out of range \(Session.maxSelectionRange.lowerBound)…\(Session.maxSelectionRange.upperBound)")
        }
        if let t = request.title, t.utf8.count > 1024 {
            throw PickerError(.invalidArgument, "title is longer than 1024 bytes")
        }
        name = request.name
        title = request.title ?? Session.defaultTitle
        width = request.width
        height = request.height
        maxSelection = maxSel
        album = nil
        photo = nil
        selection = []
    }

    /// - Throws: `.outOfRange` naming the range.
    public static func validatePane(width: Int, height: Int?) throws(PickerError) {
        guard paneRange.contains(width) else {
            throw PickerError(.outOfRange, "pane width \(width) is out of range 16…8192 px")
        }
        if let h = height, !paneRange.contains(h) {
            throw PickerError(.outOfRange, "pane height \(h) is out of range 16…8192 px")
        }
    }

    /// Session names: 1…128 bytes of printable characters, no '/'.
    public static func validate(name: String) throws(PickerError) {
        guard !name.isEmpty, name.utf8.count <= 128 else {
            throw PickerError(.invalidName, "session name must be 1…128 bytes")
        }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "/" || $0.value == 0x7f }) else {
            throw PickerError(.invalidName, "session name must not contain '/' or control characters")
        }
    }
}
