import PickerProtocol

/// Finishing a session: a client says the user accepted its picks or cancelled (`sessionFinish`),
/// and every subscriber hears it as that session change. The one answer a host waiting on a session
/// (pickerd-portal, a script) needs, whichever client served it.
extension PickerService {
    /// Marks the session finished and announces it. Accepting a session with no picks makes its
    /// current photo the one pick (announced as a selection change first), as pick's Enter does.
    /// - Throws: `.invalidArgument` for an unknown outcome or a session already finished (a change to it
    ///   opens it again); `.nothingSelected` when accepting with no picks and no current photo;
    ///   `.corruptImage`/`.imageTooLarge` when that current photo cannot be shown; `.noSuchSession`.
    func finish(_ name: String, _ outcome: SessionOutcome) throws(PickerError) -> SessionState {
        guard let change = outcome.change else {
            throw PickerError(.invalidArgument, "unknown outcome \(outcome.rawValue) (1 accepted, 2 cancelled)")
        }
        let (before, after) = try sessions.update(name) { (s: inout Session) throws(PickerError) -> (Session, Session) in
            if let done = s.finished {
                throw PickerError(.invalidArgument, "session '\(name)' is already \(SessionOutcome(rawValue: done).name)")
            }
            let before = s
            if outcome == .accepted { try acceptCurrentPhotoIfNoPicks(&s) }
            s.finished = outcome.rawValue
            return (before, s)
        }
        if before.selection != after.selection { _ = announce(.selection, state(of: after)) }
        return announce(change, state(of: after))
    }

    private func acceptCurrentPhotoIfNoPicks(_ s: inout Session) throws(PickerError) {
        s.selection = s.selection.filter { library.photo(relativePath: $0) != nil }
        guard s.selection.isEmpty else { return }
        guard let path = s.photo, let photo = library.photo(relativePath: path) else {
            throw PickerError(.nothingSelected, "nothing to accept in session '\(s.name)': no picks and no current photo")
        }
        if let reason = brokenReason(photo) {
            throw PickerError(photo.tooLarge == nil ? .corruptImage : .imageTooLarge,
                              "cannot accept '\(photo.fileName)': it cannot be shown: \(reason)")
        }
        s.selection = [path]
    }
}
