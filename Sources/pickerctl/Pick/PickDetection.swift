#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// The few environment variables detection reads.
enum PickEnvironment {
    static func current() -> [String: String] {
        var env: [String: String] = [:]
        for key in ["TMUX", "TERM", "TERM_PROGRAM", "KONSOLE_VERSION", "KITTY_WINDOW_ID", "LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(key) { env[key] = String(cString: value) }
        }
        return env
    }
}

/// Asks the terminal what it can do: the kitty query (through tmux's passthrough inside tmux), the pixel
/// sizes, then DA1, which every terminal answers, so its reply ends the wait.
enum PickDetection {
    static func run(on terminal: TerminalSession, inTmux: Bool) -> GraphicsDetection {
        var detection = GraphicsDetection()
        var parser = TerminalInputParser()
        let outer = Passthrough(enabled: inTmux)
        let kitty = outer.wrap(Array(GraphicsDetection.kittyQuery.utf8))
        let sixel = outer.wrap(Array(GraphicsDetection.sixelGeometryQuery.utf8))
        terminal.write(kitty + sixel + Array((GraphicsDetection.sizeQueries + GraphicsDetection.deviceAttributesQuery).utf8))
        // A terminal that answers nothing (rare) costs a second; tmux answers DA1 itself before the outer
        // terminal's kitty reply comes back through it, so wait a little longer there.
        var rounds = 0
        var afterFinish = 0
        while rounds < 20 && afterFinish < (inTmux ? 3 : 1) {
            rounds += 1
            if detection.finished { afterFinish += 1 }
            guard let ready = try? Terminal.waitReadable([terminal.descriptor], timeoutMilliseconds: 50), ready[0] else { continue }
            for input in parser.feed(terminal.read() ?? []) { detection.note(input) }
        }
        return detection
    }
}
