import PickerProtocol

/// The host app's choices in pick: shown in the status row as `1 [x] Label  2 Label: Option`, changed
/// with the digit keys 1-9 (one a choice, in the app's order): a check box flips, a list moves on to
/// its next option, from the last back to the first.
extension PickerModel {
    /// The most choices that have a key.
    static let choiceKeys = 9

    /// Key `key` (1-9): the action that moves that choice on; a notice when there is no such choice.
    mutating func changeChoice(key: Character) -> [PickAction] {
        guard let n = key.wholeNumberValue, n >= 1, n <= choices.count else {
            notice = choices.isEmpty ? "no choices in this session" : "choices are 1-\(min(choices.count, Self.choiceKeys))"
            return [.redraw]
        }
        let choice = choices[n - 1]
        return [.setChoice(id: choice.id, value: choice.nextValue)]
    }

    /// The status row's part for the choices: each with its key, a check box as `[x]`/`[ ]` before its
    /// label, a list as `label: option`. Empty without choices.
    var choicesText: String {
        choices.prefix(Self.choiceKeys).enumerated().map { i, c in
            let label = PickRenderer.shown(c.label.isEmpty ? c.id : c.label)
            if c.isCheckBox { return "\(i + 1) [\(c.value == "true" ? "x" : " ")] \(label)" }
            return "\(i + 1) \(label): \(PickRenderer.shown(c.valueLabel.isEmpty ? c.value : c.valueLabel))"
        }.joined(separator: "  ")
    }
}
