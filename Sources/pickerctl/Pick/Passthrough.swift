#if canImport(Glibc)
import Glibc
#endif
import PickerSystem

/// Inside tmux, a graphics sequence reaches the outer terminal only wrapped in a `tmux;` DCS, with every
/// ESC doubled, and only when tmux's `allow-passthrough` is on. tmux writes it wherever the outer cursor
/// happens to be, so the wrapped bytes first move the outer cursor to the spot (the pane's origin on the
/// outer screen plus the spot in the pane) and put it back after.
struct Passthrough {
    var enabled: Bool
    /// Where the pane's top-left cell is on the outer terminal (0-based); nil when unknown.
    var paneOrigin: (column: Int, row: Int)? = nil

    func wrap(_ bytes: [UInt8], at spot: (column: Int, row: Int)? = nil) -> [UInt8] {
        guard enabled else { return bytes }
        var inner = bytes
        if let spot, let origin = paneOrigin {
            let move = "\u{1b}7\u{1b}[\(origin.row + spot.row + 1);\(origin.column + spot.column + 1)H"
            inner = Array(move.utf8) + bytes + Array("\u{1b}8".utf8)
        }
        var out = Array("\u{1b}Ptmux;".utf8)
        out.reserveCapacity(inner.count + inner.count / 16 + 8)
        for b in inner {
            if b == 0x1b { out.append(0x1b) }
            out.append(b)
        }
        out += Array("\u{1b}\\".utf8)
        return out
    }

    /// Asks tmux (`display -p -t $TMUX_PANE`) where this pane sits in its window; nil outside tmux or on failure.
    static func tmuxPaneOrigin() -> (column: Int, row: Int)? {
        guard let tmuxValue = getenv("TMUX"), let paneValue = getenv("TMUX_PANE") else { return nil }
        let socket = String(String(cString: tmuxValue).split(separator: ",").first ?? "")
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        guard !socket.isEmpty, let tmux = ChildOutput.find("tmux", in: path),
              let text = ChildOutput.run(tmux, ["-S", socket, "display-message", "-p", "-t", String(cString: paneValue),
                                                "#{pane_left} #{pane_top}"]) else { return nil }
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }
}
