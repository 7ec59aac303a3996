import PickerProtocol
import PickerSystem

/// The rules a session's choices satisfy (the host app's toggles, `sessionNew`'s extension), applied to
/// the request and to sessions restored from `sessions.json` alike, and to every `setChoice`.
public enum ChoiceRules {
    public static let maxChoices = 32
    public static let maxOptions = 64
    /// Ids and labels: at most this many bytes, no control characters.
    public static let maxTextBytes = 256

    /// - Throws: `.invalidArgument` naming the rule broken (too many, an empty or repeated id, a label
    ///   with control characters, a value that is not one of the choice's).
    public static func validate(_ choices: [SessionChoice]) throws(PickerError) {
        guard choices.count <= maxChoices else {
            throw PickerError(.invalidArgument, "\(choices.count) choices; at most \(maxChoices)")
        }
        var ids: Set<String> = []
        for c in choices {
            try validate(text: c.id, what: "choice id", empty: false)
            try validate(text: c.label, what: "label of choice '\(c.id)'", empty: true)
            guard ids.insert(c.id).inserted else { throw PickerError(.invalidArgument, "choice '\(c.id)' is given twice") }
            try validate(options: c)
            try validate(value: c.value, of: c)
        }
    }

    /// - Throws: `.invalidArgument` when `value` is not one of the choice's options (`true`/`false` for a check box).
    public static func validate(value: String, of c: SessionChoice) throws(PickerError) {
        guard c.allowedValues.contains(value) else {
            throw PickerError(.invalidArgument, "'\(InertText.escaped(value))' is not a value of choice '\(c.id)' "
                              + "(\(c.allowedValues.map(InertText.escaped).joined(separator: ", ")))")
        }
    }

    private static func validate(options c: SessionChoice) throws(PickerError) {
        guard c.options.count <= maxOptions else {
            throw PickerError(.invalidArgument, "choice '\(c.id)' has \(c.options.count) options; at most \(maxOptions)")
        }
        var ids: Set<String> = []
        for o in c.options {
            try validate(text: o.id, what: "option id of choice '\(c.id)'", empty: false)
            try validate(text: o.label, what: "label of option '\(o.id)'", empty: true)
            guard ids.insert(o.id).inserted else {
                throw PickerError(.invalidArgument, "option '\(o.id)' of choice '\(c.id)' is given twice")
            }
        }
    }

    private static func validate(text: String, what: String, empty: Bool) throws(PickerError) {
        try SessionRules.validate(text: text, what: what, maxBytes: maxTextBytes, empty: empty)
    }
}
