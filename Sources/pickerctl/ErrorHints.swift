import PickerProtocol

/// How to fix a daemon error, in pickerctl's own commands. The daemon's message says what is
/// wrong in terms every client shares; each client adds the remedy in its own terms
/// (PROTOCOL.md, errors), and this is pickerctl's.
enum ErrorHints {
    /// The hint for `error`, or nil when there is nothing to add.
    static func hint(for error: PickerError) -> String? {
        switch error.code {
        case .nothingSelected:
            return "choose one with `pickerctl select-album` and `pickerctl select-photo`"
        case .selectionFull:
            return "remove one with `pickerctl toggle` or `pickerctl clear-selection`"
        case .noSuchSession:
            return "create it with `pickerctl session new NAME --width W`; `pickerctl session list` lists them"
        case .noSuchAlbum:
            return "`pickerctl albums` lists them"
        case .noSuchPhoto:
            return "`pickerctl photos` lists them"
        case .noSuchChoice:
            return "`pickerctl choices` lists them"
        case .tooBusy where error.message.hasPrefix("too many sessions"):
            return "close some with `pickerctl session close`"
        default:
            return nil
        }
    }

    /// The daemon's message followed by the hint ("…; see …"), as pickerctl prints it.
    static func message(for error: PickerError) -> String {
        guard let hint = hint(for: error) else { return error.message }
        return "\(error.message); \(hint)"
    }
}
