import PickerClient
import PickerProtocol

/// The session's choices: the toggles a host app asked to show with the picks (pickerd-portal's
/// `choices`), listed and set. pick shows them in its footer (keys 1-9).
let choiceCommands: [CommandSpec] = [
    CommandSpec(words: ["choices"], summary: "the session's choices (the host app's toggles) and their values") { inv throws(CLIError) in
        try printChoices(try inv.call(.choices(session: inv.session)), inv)
    },
    CommandSpec(words: ["set-choice"], summary: "set one of the session's choices: an option's id, or true/false for a check box",
                arguments: [ArgumentSpec(name: "ID", optional: false, help: "the choice's id", completion: .live("choices")),
                            ArgumentSpec(name: "VALUE", optional: false, help: "one of its options' ids; true or false for a check box")],
                details: "Subscribers hear `choice` (pickerctl watch); pickerd-portal answers the app's file dialog with\nthe values the choices have when the session is accepted.") { inv throws(CLIError) in
        guard let id = inv.positional(0), let value = inv.positional(1) else { throw .usage("set-choice needs ID and VALUE") }
        try printChoices(try inv.call(.setChoice(session: inv.session, id: id, value: value)), inv)
    },
]

private func printChoices(_ reply: Reply, _ inv: Invocation) throws(CLIError) {
    guard case .choices(let list) = reply else { throw unexpected(reply) }
    if inv.json { return Output.json(Render.choicesJSON(list)) }
    if list.isEmpty { return Output.line("no choices in session '\(Render.shown(inv.session))'") }
    Output.line(list.map(Render.choiceText).joined(separator: "\n"))
}

extension Render {
    /// `ID = VALUE  LABEL` and, for a list, its options (the chosen one starred).
    static func choiceText(_ c: SessionChoice) -> String {
        let head = "\(shown(c.id)) = \(shown(c.value))" + (c.label.isEmpty ? "" : "  \(shown(c.label))")
        if c.isCheckBox { return head + "  (true/false)" }
        let options = c.options.map { o in (o.id == c.value ? "*" : "") + shown(o.id) + (o.label.isEmpty ? "" : " (\(shown(o.label)))") }
        return head + "  [" + options.joined(separator: ", ") + "]"
    }

    static func choicesJSON(_ list: [SessionChoice]) -> JSONValue {
        .array(list.map { c in
            .object([("id", .string(c.id)), ("label", .string(c.label)), ("value", .string(c.value)),
                     ("check_box", .bool(c.isCheckBox)),
                     ("options", .array(c.options.map { .object([("id", .string($0.id)), ("label", .string($0.label))]) }))])
        })
    }
}

/// `status`: the session and, when it has any, its choices (one `choice:` line each; `choices` in JSON).
/// A daemon from before choices answers `unknown_message_type` to the second ask: shown as none.
func printStatus(_ inv: Invocation) throws(CLIError) {
    let conn = try inv.connect()
    let reply: Reply
    var choices: [SessionChoice] = []
    do throws(ClientError) {
        reply = try conn.call(.status(session: inv.session))
        do throws(ClientError) {
            if case .choices(let list) = try conn.call(.choices(session: inv.session)) { choices = list }
        } catch {
            guard case .server(let e) = error, e.code == .unknownMessageType else { throw error }
        }
    } catch {
        throw CLIError(error)
    }
    guard case .session(let s) = reply else { throw unexpected(reply) }
    if inv.json {
        guard case .object(var fields) = Render.sessionJSON(s) else { return }
        if !choices.isEmpty { fields.append(("choices", Render.choicesJSON(choices))) }
        return Output.json(.object(fields))
    }
    Output.line(([Render.sessionText(s)] + choices.map { "choice:    " + Render.choiceText($0) }).joined(separator: "\n"))
}
