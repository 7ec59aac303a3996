#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol

/// Commands for integrations: events.
let integrationCommands: [CommandSpec] = [
    CommandSpec(words: ["watch"], summary: "print the session's events (album, photo, selection, pane size, closed) until interrupted",
                options: [OptionSpec(name: "--library", valueName: nil, help: "also print library changes (photos added or removed)")],
                details: "One line per event; with --json, one JSON object per line. A change of the pick list names each photo\npicked or dropped: `default selection +IMG_0042.jpg (3 of 10)`, `default selection -IMG_0007.jpg (2 of 10)`.\nExit 0 when interrupted; exit 5 when the daemon goes away.") { inv throws(CLIError) in
        let conn = try inv.connect()
        // Interrupting is how watch ends: exit 0, even if the parent left SIGINT ignored; `-o FILE` is put in place.
        signal(SIGINT) { _ in TextOutputFile.commitFromSignalHandler(); _exit(0) }
        signal(SIGTERM) { _ in TextOutputFile.commitFromSignalHandler(); _exit(0) }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        var picks = PickTracker(lookup: try inv.connect(), session: inv.session)
        do throws(ClientError) {
            _ = try conn.call(.subscribe(Subscription(session: inv.session, library: inv.flag("--library"))))
            picks.refresh()
            while true {
                let frame = try conn.nextFrame()
                // The daemon ends the subscription of a reader that fell too far behind, with an error.
                if case .error(let e)? = try? Reply(frame: frame) { throw ClientError.server(e) }
                guard frame.isEvent, let event = try? Event(frame: frame) else { continue }
                if inv.json {
                    Output.streamJSON(Render.eventJSON(event))
                } else if case let .session(.selection, state) = event, let lines = picks.changeLines(state) {
                    for line in lines { Output.streamLine(line) }
                } else {
                    // One event may be several lines (one per photo added or removed); names are escaped.
                    for line in Render.eventText(event).split(separator: "\n") { Output.streamLine(String(line)) }
                }
            }
        } catch {
            throw CLIError(error)
        }
    },
]

/// Names the photos a selection event picked or dropped: the event carries only counts, so the pick
/// list is asked for on a second connection and compared with the one seen before.
private struct PickTracker {
    let lookup: PickerConnection
    let session: String
    private var last: [SelectedPhoto] = []

    init(lookup: PickerConnection, session: String) {
        self.lookup = lookup
        self.session = session
    }

    /// Reads the pick list now; nil when it cannot be had (the session is not there yet).
    private func current() -> [SelectedPhoto]? {
        guard case .selection(let list)? = try? lookup.call(.selection(session: session)) else { return nil }
        return list.photos
    }

    mutating func refresh() { last = current() ?? [] }

    /// `NAME selection +IMG_0042.jpg (3 of 10)` for each photo picked, `-…` for each dropped, in
    /// pick order; nil when the list could not be read or nothing differs (then the count line is printed).
    mutating func changeLines(_ state: SessionState) -> [String]? {
        guard let now = current() else { return nil }
        defer { last = now }
        let before = Set(last.map(\.path)), after = Set(now.map(\.path))
        let dropped = last.filter { !after.contains($0.path) }.map { "-" + Render.shown($0.name) }
        let picked = now.filter { !before.contains($0.path) }.map { "+" + Render.shown($0.name) }
        let changes = dropped + picked
        guard !changes.isEmpty else { return nil }
        let count = "(\(now.count) of \(state.maxSelection))"
        return changes.map { "\(Render.shown(state.name)) selection \($0) \(count)" }
    }
}
