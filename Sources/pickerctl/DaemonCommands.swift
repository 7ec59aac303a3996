import PickerClient
import PickerProtocol

/// `ping`: is the daemon there, and which version.
let daemonCommands: [CommandSpec] = [
    CommandSpec(words: ["ping"], summary: "check the daemon answers; prints its version") { inv throws(CLIError) in
        let conn = try inv.connect()
        let reply: Reply
        do throws(ClientError) { reply = try conn.call(.ping) } catch { throw CLIError(error) }
        guard case .pong(let version) = reply else { throw unexpected(reply) }
        if inv.json {
            Output.json(.object([("version", .string(version)), ("protocol", .int(Int(conn.capabilities.version))),
                                 ("socket", .string(inv.socketPath))]))
        } else {
            Output.line(Render.shown(version))
        }
    },
]
