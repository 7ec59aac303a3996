import PickerClient
import PickerProtocol

/// Moving through the library: albums, the current album and photo, the session's status.
let navigationCommands: [CommandSpec] = [
    CommandSpec(words: ["albums"], summary: "list albums: index, name, photo count") { inv throws(CLIError) in
        let conn = try inv.connect()
        let reply: Reply
        do throws(ClientError) { reply = try conn.call(.albums) } catch { throw CLIError(error) }
        guard case .albums(let albums) = reply else { throw unexpected(reply) }
        defer { try? noteIfScanning(conn) }
        if inv.json {
            Output.json(.array(albums.map { .object([("index", .int($0.index)), ("name", .string($0.name)), ("photos", .int($0.photoCount))]) }))
        } else {
            let rows = albums.map { ["\($0.index)", $0.name, "\($0.photoCount)"] }
            Output.line(Render.table(rows, rightAligned: [true, false, true]))
        }
    },
    CommandSpec(words: ["select-album"], summary: "select an album by name or --index; clears the current photo",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "album name, e.g. 2024/Kyoto or \"All Photos\"",
                                            completion: .live("albums"))],
                options: [indexOption]) { inv throws(CLIError) in
        let selector = try inv.selector(what: "album")
        try printSession(try inv.call(.selectAlbum(session: inv.session, selector)), inv)
    },
    CommandSpec(words: ["select-photo"], summary: "make a photo of the selected album current, by name or --index",
                arguments: [ArgumentSpec(name: "NAME", optional: true, help: "photo file name", completion: .live("photos"))],
                options: [indexOption]) { inv throws(CLIError) in
        let selector = try inv.selector(what: "photo")
        try printSession(try inv.call(.selectPhoto(session: inv.session, selector)), inv)
    },
    CommandSpec(words: ["next"], summary: "move to the next photo in the album") { inv throws(CLIError) in
        try printSession(try inv.call(.stepPhoto(session: inv.session, .next)), inv)
    },
    CommandSpec(words: ["prev"], summary: "move to the previous photo in the album") { inv throws(CLIError) in
        try printSession(try inv.call(.stepPhoto(session: inv.session, .previous)), inv)
    },
    CommandSpec(words: ["status"], summary: "title, message, album, current photo, pane size, selection count, choices") { inv throws(CLIError) in
        try printStatus(inv)
    },
]
