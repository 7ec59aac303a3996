import PickerProtocol
import PickerSystem

/// A session's choices: the toggles a host app asked for (`sessionNew`'s extension, from the portal's
/// `choices`), read with `choices` and set with `setChoice`; a change is announced as the session change
/// `choice`, so the portal and pick hear it.
extension PickerService {
    /// The session's choices with their values now (empty when it has none).
    /// - Throws: `.noSuchSession`.
    func choices(of name: String) throws(PickerError) -> [SessionChoice] {
        try sessions.get(name).choices ?? []
    }

    /// Sets choice `id` to `value`; announced (`choice`) only when the value changed.
    /// - Throws: `.noSuchSession`; `.noSuchChoice` for an id the session does not have; `.invalidArgument`
    ///   for a value that is not one of the choice's options (`true`/`false` for a check box).
    func setChoice(_ name: String, id: String, value: String) throws(PickerError) -> [SessionChoice] {
        let change = try changeSession(name, .choice) { (s: inout Session) throws(PickerError) in
            var list = s.choices ?? []
            guard let i = list.firstIndex(where: { $0.id == id }) else {
                let known = list.map(\.id)
                throw PickerError(.noSuchChoice, "session '\(name)' has no choice '\(InertText.escaped(id))'"
                                  + (known.isEmpty ? " (it has none)" : " (it has \(known.joined(separator: ", ")))"))
            }
            try ChoiceRules.validate(value: value, of: list[i])
            list[i].value = value
            s.choices = list
        }
        return change.after.choices ?? []
    }
}
