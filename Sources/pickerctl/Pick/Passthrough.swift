/// Inside tmux, a graphics sequence reaches the outer terminal only wrapped in a `tmux;` DCS, with every
/// ESC doubled, and only when tmux's `allow-passthrough` is on.
struct Passthrough {
    var enabled: Bool

    func wrap(_ bytes: [UInt8]) -> [UInt8] {
        guard enabled else { return bytes }
        var out = Array("\u{1b}Ptmux;".utf8)
        out.reserveCapacity(bytes.count + bytes.count / 16 + 8)
        for b in bytes {
            if b == 0x1b { out.append(0x1b) }
            out.append(b)
        }
        out += Array("\u{1b}\\".utf8)
        return out
    }
}
