/// Text that a terminal or a log reader shows as characters, never obeys.
///
/// Names, titles and messages come from file names and clients: an ESC in one would clear the screen
/// (`ESC[2J`) or write the clipboard (OSC 52), a CR or backspace would overwrite what is already shown,
/// a C1 control (U+009B is a one-character CSI) does the same on terminals that honour it, and a newline
/// forges a row or a log line. `escaped` shows every such code point visibly instead:
///
/// - `\e` for ESC, `\n`, `\r`, `\t`;
/// - other C0 controls and DEL as `\xHH` (`\x08` for backspace, `\x7f` for DEL);
/// - C1 controls (U+0080–U+009F) as `\u{HH}` (`\u{9b}`);
/// - bidirectional controls (U+061C, U+200E–F, U+202A–E, U+2066–9) as `\u{HHHH}`: a U+202E in a
///   name would show the rest of the row, and what follows it, reversed ("gpj.exe" as "exe.jpg").
///
/// Everything else passes as it is, U+FFFD and all other printable Unicode included.
/// A backslash is not doubled: text output is for people, who should see `C:\photos` as written; the
/// exact bytes are in `--json`. So the escaped form is not reversible, by choice.
public enum InertText {
    /// `text` with every C0 control, DEL and C1 control shown as an escape (see the type's summary).
    public static func escaped(_ text: String) -> String {
        escaped(text, keeping: [])
    }

    /// Like `escaped`, but the code points in `keep` (e.g. the newline between rows this program
    /// writes itself) pass unchanged.
    public static func escaped(_ text: String, keeping keep: Set<Unicode.Scalar>) -> String {
        // Fast path: most names have nothing to escape.
        guard text.unicodeScalars.contains(where: { needsEscape($0) && !keep.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) && !keep.contains(scalar) {
                out += escape(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether a code point is a C0 control, DEL or a C1 control.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// What `escaped` shows escaped: the controls and the bidirectional controls.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isBidiControl(scalar) }

    /// The explicit bidirectional formatting characters (UAX #9): embeddings, overrides, isolates, marks.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x80...0x9F: return "\\u{\(hex(scalar.value))}"
        case 0x100...: return "\\u{\(hex(scalar.value >> 8))\(hex(scalar.value))}"
        default: return "\\x\(hex(scalar.value))"
        }
    }

    private static func hex(_ v: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(v >> 4 & 0xF)], digits[Int(v & 0xF)]])
    }
}
