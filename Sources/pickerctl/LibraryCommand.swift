import Glibc
import PickerClient
import PickerProtocol

/// `library [--wait]`: root, counts and scan state; while a scan runs, how far it has got.
let libraryCommands: [CommandSpec] = [
    CommandSpec(words: ["library"], summary: "library root, album and photo counts, scan state and progress",
                options: [OptionSpec(name: "--wait", valueName: nil, help: "wait until the scan is done (a progress bar on a terminal)")],
                details: "The daemon scans in the background: it answers at once, and listings made during\nthe first scan answer from what is known so far. While a scan runs, `scan:` says how\nfar it has got. --wait returns when the scan is done.") { inv throws(CLIError) in
        let conn = try inv.connect()
        let l = inv.flag("--wait") ? try waitForScan(conn, bar: !inv.json && isatty(1) != 0) : try libraryInfo(conn)
        let progress = l.scanState == .scanning ? try scanProgress(conn) : nil
        if inv.json {
            Output.json(.object([("root", .string(l.root)), ("albums", .int(l.albumCount)), ("photos", .int(l.photoCount)),
                                 ("scan_state", .string(l.scanState == .ready ? "ready" : "scanning")),
                                 ("scanned_at", .int(Int(l.scannedAt))), ("skipped", .int(l.skippedCount))]
                                + (progress.map { [("progress", .object(Render.scanFields($0)))] } ?? [])))
        } else {
            let scan = progress.map(Render.scanText) ?? "ready"
            Output.line("root:    \(Render.shown(l.root))\nalbums:  \(l.albumCount)\nphotos:  \(l.photoCount)\nscan:    \(scan)"
                        + (l.skippedCount > 0 ? " (\(l.skippedCount) unreadable file(s) skipped)" : ""))
        }
    },
]

/// After a listing: while the library is still being scanned, says so on stderr (the list shows only
/// what is known so far). Nothing is printed once the scan is done.
func noteIfScanning(_ conn: PickerConnection) throws(CLIError) {
    guard try libraryInfo(conn).scanState == .scanning else { return }
    let progress = try scanProgress(conn)
    Output.error("note: the library is still being scanned (\(Render.scanText(progress))); this list shows only what is known so far")
}

private func libraryInfo(_ conn: PickerConnection) throws(CLIError) -> LibraryInfo {
    let reply = try call(conn, .libraryInfo)
    guard case .libraryInfo(let l) = reply else { throw unexpected(reply) }
    return l
}

private func scanProgress(_ conn: PickerConnection) throws(CLIError) -> ScanProgress {
    let reply = try call(conn, .scanProgress)
    guard case .scanProgress(let p) = reply else { throw unexpected(reply) }
    return p
}

/// Polls on one connection until the scan is done (a scan of 100,000 photos takes about a second;
/// 50 ms polls cost the daemon nothing it would notice), drawing a bar on a terminal.
private func waitForScan(_ conn: PickerConnection, bar: Bool) throws(CLIError) -> LibraryInfo {
    var drawn = false
    defer { if drawn { Output.progress("\r\u{1b}[K") } }
    while true {
        let info = try libraryInfo(conn)
        if info.scanState == .ready { return info }
        if bar {
            Output.progress("\r" + progressBar(try scanProgress(conn)) + "\u{1b}[K")
            drawn = true
        }
        usleep(50_000)
    }
}

/// `[##########..........] scanning: 41,200 of ~100,000 files, 1.1 s`
private func progressBar(_ p: ScanProgress) -> String {
    let width = 20
    let filled = p.filesExpected > 0 ? min(width, p.filesDone * width / p.filesExpected) : 0
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
        + Render.scanText(p)
}
