import PickerProtocol

/// Finishing the session: the user's answer to whoever waits on it (pickerd-portal, a script
/// reading `pickerctl watch`). pick's Enter and Esc do the same for the session they serve.
let finishCommands: [CommandSpec] = [
    finishCommand(.accepted, summary: "finish the session as accepted: its picks (with none, the current photo) are the answer",
                  details: "Subscribers hear `accepted` (pickerctl watch); pickerd-portal answers the app's file dialog with\nthe picks in pick order. Refused when the session is already finished; any later change opens it again."),
    finishCommand(.cancelled, summary: "finish the session as cancelled: whoever waits on it gets no photo",
                  details: "Subscribers hear `cancelled`; pickerd-portal answers the app's file dialog as cancelled (response 1)."),
]

private func finishCommand(_ outcome: SessionOutcome, summary: String, details: String) -> CommandSpec {
    CommandSpec(words: [outcome == .accepted ? "accept" : "cancel"], summary: summary, details: details) { inv throws(CLIError) in
        let reply = try inv.call(.sessionFinish(session: inv.session, outcome))
        guard case .session(let s) = reply else { throw unexpected(reply) }
        if inv.json { return Output.json(Render.sessionJSON(s)) }
        Output.line(outcome == .accepted
            ? "accepted session '\(Render.shown(s.name))' (\(s.selectionCount) picked)"
            : "cancelled session '\(Render.shown(s.name))'")
    }
}
