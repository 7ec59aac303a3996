import Foundation

/// The pane sizes a session is given while something runs, from `pickerctl watch --json`: pick now puts
/// a host's pane size back on exit (issue 24 item 2), so a test that wants the size pick drew for reads
/// it here instead of from the session afterwards.
final class PaneSizeWatch {
    let pid: pid_t
    let output: URL

    /// Starts watching `session` (which exists, `width` wide with no height) and waits until the watch
    /// is live: probe resizes (width + 1, width, ...: pickerd announces only a change) show up as events.
    init(_ daemon: LiveDaemon, session: String, width: Int) async throws {
        output = daemon.directory.appendingPathComponent("watch-\(session).jsonl")
        pid = try spawnProcess(TestEnvironment.pickerctl.path, ["--socket", daemon.socketPath, "--session", session, "watch", "--json"],
                               environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: output.path,
                               stderr: daemon.directory.appendingPathComponent("watch-\(session).err").path)
        let deadline = Date().addingTimeInterval(20)
        var probe = 0
        while sizes().isEmpty && Date() < deadline {
            probe += 1
            _ = try await daemon.ctl("session", "resize", "--width", String(width + probe % 2), session: session)
            await pause(100_000)
        }
        _ = try await daemon.ctl("session", "resize", "--width", String(width), session: session)
    }

    /// Every pane_size event so far.
    func sizes() -> [[String: Any]] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "pane_size" else { return nil }
            return event
        }
    }

    /// The first size with a height (pick's own, when pick ran: the probes set none), and stops watching.
    func firstSetSize() -> [String: Any] {
        let all = sizes()
        kill(pid, SIGTERM)
        _ = waitForExit(pid)
        return all.first(where: { $0["height"] is Int }) ?? [:]
    }
}
