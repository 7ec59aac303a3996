#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerProtocol

/// Commands for integrations: events.
let integrationCommands: [CommandSpec] = [
    CommandSpec(words: ["watch"], summary: "print the session's events (album, photo, selection, pane size, closed) until interrupted",
                options: [OptionSpec(name: "--library", valueName: nil, help: "also print library changes (photos added or removed)")],
                details: "One line per event; with --json, one JSON object per line.") { inv throws(CLIError) in
        let conn = try inv.connect()
        // Interrupting is how watch ends: exit 0, even if the parent left SIGINT ignored.
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        do throws(ClientError) {
            _ = try conn.call(.subscribe(Subscription(session: inv.session, library: inv.flag("--library"))))
            while true {
                let frame = try conn.nextFrame()
                // The daemon ends the subscription of a reader that fell too far behind, with an error.
                if case .error(let e)? = try? Reply(frame: frame) { throw ClientError.server(e) }
                guard frame.isEvent, let event = try? Event(frame: frame) else { continue }
                if inv.json {
                    Output.streamJSON(Render.eventJSON(event))
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
