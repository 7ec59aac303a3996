import PickerProtocol
import PickerSystem

/// The one set of rules a session must satisfy, applied both to client requests
/// (`session new`, `resize`) and to sessions restored from `sessions.json`, so a
/// tampered state file can never hold what a client could not have asked for.
public enum SessionRules {
    public static let paneRange = ProtocolLimits.paneSizeRange
    public static let maxSelectionRange = 1...1000
    public static let maxNameBytes = 128
    public static let maxTitleBytes = 256

    /// Session names: 1…128 bytes, no '/', no control characters (C0, DEL, C1).
    /// - Throws: `.invalidName`.
    public static func validate(name: String) throws(PickerError) {
        guard !name.isEmpty, name.utf8.count <= maxNameBytes else {
            throw PickerError(.invalidName, "session name must be 1…\(maxNameBytes) bytes")
        }
        guard !name.unicodeScalars.contains(where: { $0 == "/" || isControl($0) }) else {
            throw PickerError(.invalidName, "session name must not contain '/' or control characters")
        }
    }

    /// Titles: at most 256 bytes, no control characters (C0 such as ESC or newline, DEL, C1 such as U+009B).
    /// - Throws: `.invalidArgument` naming the rule (never echoing the title's bytes).
    public static func validate(title: String) throws(PickerError) {
        try validate(text: title, what: "title", maxBytes: maxTitleBytes, empty: true)
    }

    /// The rule for every text a client sets (titles, choice ids and labels, filter patterns): at most
    /// `maxBytes`, no control characters, and not empty unless `empty`.
    /// - Throws: `.invalidArgument` naming `what` and the rule (never echoing the text's bytes).
    static func validate(text: String, what: String, maxBytes: Int, empty: Bool) throws(PickerError) {
        guard empty || !text.isEmpty else { throw PickerError(.invalidArgument, "\(what) is empty") }
        guard text.utf8.count <= maxBytes else {
            throw PickerError(.invalidArgument, "\(what) is longer than \(maxBytes) bytes")
        }
        if let bad = text.unicodeScalars.first(where: isControl) {
            throw PickerError(.invalidArgument, "\(what) must not contain control characters (found U+\(hex4(bad.value)))")
        }
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

    /// - Throws: `.outOfRange` naming the range.
    public static func validate(maxSelection: Int) throws(PickerError) {
        guard maxSelectionRange.contains(maxSelection) else {
            throw PickerError(.outOfRange, "max selection \(maxSelection) is out of range \(maxSelectionRange.lowerBound)…\(maxSelectionRange.upperBound)")
        }
    }

    /// Everything a whole session must satisfy: the request rules plus the state only the
    /// daemon sets (album and photo names, a pick list within the maximum of valid relative names).
    /// - Throws: the first rule broken.
    public static func validate(_ s: Session) throws(PickerError) {
        try validate(name: s.name)
        try validatePane(width: s.width, height: s.height)
        try validate(maxSelection: s.maxSelection)
        try validate(title: s.title)
        if let album = s.album { _ = try LibraryPath.validatedName(album, what: "album") }
        if let photo = s.photo { _ = try LibraryPath.validatedName(photo, what: "photo") }
        guard s.selection.count <= s.maxSelection else {
            throw PickerError(.outOfRange, "selection of \(s.selection.count) photos exceeds its maximum of \(s.maxSelection)")
        }
        for path in s.selection { _ = try LibraryPath.validatedName(path, what: "photo") }
        if let filter = s.filter { try PhotoNameFilter.validate(filter) }
        if let choices = s.choices { try ChoiceRules.validate(choices) }
    }

    /// C0 controls, DEL and C1 controls (U+0080…U+009F): the same set the text output escapes.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { InertText.isControl(scalar) }

    private static func hex4(_ v: UInt32) -> String {
        let d = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - d.count)) + d
    }
}
