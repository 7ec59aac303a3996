/// One thing the terminal sent: a key, a mouse action, or an answer to one of our queries.
enum TerminalInput: Equatable {
    case up, down, left, right, pageUp, pageDown, home, end
    case tab, backTab, enter, escape, backspace, interrupt
    case character(Character)
    /// A button press (SGR mouse; 0 = left) at a 0-based cell.
    case click(column: Int, row: Int)
    case wheel(up: Bool, column: Int, row: Int)
    /// The kitty graphics protocol answered our `a=q` query (`OK` or an error).
    case kittyGraphicsReply(ok: Bool)
    /// Primary device attributes (DA1): `4` among them means sixel.
    case deviceAttributes([Int])
    /// `CSI 4 ; height ; width t`: the text area in pixels.
    case windowPixels(width: Int, height: Int)
    /// `CSI 6 ; height ; width t`: one cell in pixels.
    case cellPixels(width: Int, height: Int)
    /// XTSMGRAPHICS's answer `CSI ? 2 ; 0 ; width ; height S`: the largest sixel picture the terminal draws.
    case sixelGeometry(width: Int, height: Int)
    /// Anything else (ignored).
    case other
}

/// Turns the bytes read from the terminal into `TerminalInput`s. Keeps an incomplete
/// escape sequence for the next read; a lone ESC at the end of a read is the Escape key.
struct TerminalInputParser {
    private var pending: [UInt8] = []

    mutating func feed(_ bytes: [UInt8]) -> [TerminalInput] {
        pending += bytes
        var out: [TerminalInput] = []
        var i = 0
        while i < pending.count {
            guard let (input, length) = Self.parseOne(pending, at: i) else { break }
            out.append(input)
            i += length
        }
        pending.removeFirst(i)
        if pending == [0x1b] {
            pending = []
            out.append(.escape)
        }
        return out
    }

    /// One input starting at `i` and its length; nil when the bytes so far are an incomplete sequence.
    private static func parseOne(_ b: [UInt8], at i: Int) -> (TerminalInput, Int)? {
        let c = b[i]
        switch c {
        case 0x1b: return parseEscape(b, at: i)
        case 0x0d, 0x0a: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7f, 0x08: return (.backspace, 1)
        case 0x03: return (.interrupt, 1)
        case 0x00..<0x20: return (.other, 1)
        default: return parseUTF8(b, at: i)
        }
    }

    private static func parseUTF8(_ b: [UInt8], at i: Int) -> (TerminalInput, Int)? {
        let c = b[i]
        let length = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4
        guard i + length <= b.count else { return nil }
        let text = String(decoding: b[i..<i + length], as: UTF8.self)
        return (text.first.map(TerminalInput.character) ?? .other, length)
    }

    private static func parseEscape(_ b: [UInt8], at i: Int) -> (TerminalInput, Int)? {
        guard i + 1 < b.count else { return nil }
        switch b[i + 1] {
        case UInt8(ascii: "["): return parseCSI(b, at: i)
        case UInt8(ascii: "O"):
            guard i + 2 < b.count else { return nil }
            return (arrow(b[i + 2]) ?? .other, 3)
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"): return parseString(b, at: i)
        case 0x1b: return (.escape, 1)
        default: return (.escape, 1)  // Alt+key: treated as Escape then the key.
        }
    }

    private static func arrow(_ final: UInt8) -> TerminalInput? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        default: return nil
        }
    }

    /// CSI: ESC [ params final (0x40…0x7e).
    private static func parseCSI(_ b: [UInt8], at i: Int) -> (TerminalInput, Int)? {
        var j = i + 2
        while j < b.count, !(0x40...0x7e).contains(b[j]) { j += 1 }
        guard j < b.count else { return nil }
        let body = String(decoding: b[(i + 2)..<j], as: UTF8.self)
        return (csi(body: body, final: b[j]), j - i + 1)
    }

    private static func csi(body: String, final: UInt8) -> TerminalInput {
        if let key = arrow(final), body.isEmpty || body == "1" { return key }
        if body.hasPrefix("<"), final == UInt8(ascii: "M") { return mouse(String(body.dropFirst())) }
        if body.hasPrefix("?"), final == UInt8(ascii: "c") {
            return .deviceAttributes(body.dropFirst().split(separator: ";").compactMap { Int($0) })
        }
        if body.hasPrefix("?"), final == UInt8(ascii: "S") { return graphicsAttribute(body.dropFirst()) }
        let numbers = body.split(separator: ";").map { Int($0) ?? 0 }
        switch (final, numbers.first) {
        case (UInt8(ascii: "~"), 5): return .pageUp
        case (UInt8(ascii: "~"), 6): return .pageDown
        case (UInt8(ascii: "~"), 1), (UInt8(ascii: "~"), 7): return .home
        case (UInt8(ascii: "~"), 4), (UInt8(ascii: "~"), 8): return .end
        case (UInt8(ascii: "t"), 4) where numbers.count == 3: return .windowPixels(width: numbers[2], height: numbers[1])
        case (UInt8(ascii: "t"), 6) where numbers.count == 3: return .cellPixels(width: numbers[2], height: numbers[1])
        default: return .other
        }
    }

    /// XTSMGRAPHICS `item ; status ; values`: only item 2 (sixel geometry) with status 0 (success) matters.
    private static func graphicsAttribute(_ body: Substring) -> TerminalInput {
        let n = body.split(separator: ";").map { Int($0) ?? -1 }
        guard n.count == 4, n[0] == 2, n[1] == 0, n[2] > 0, n[3] > 0 else { return .other }
        return .sixelGeometry(width: n[2], height: n[3])
    }

    /// SGR mouse `button;column;row` (1-based); press only (final `M`).
    private static func mouse(_ body: String) -> TerminalInput {
        let n = body.split(separator: ";").compactMap { Int($0) }
        guard n.count == 3 else { return .other }
        let (button, column, row) = (n[0], n[1] - 1, n[2] - 1)
        switch button {
        case 64: return .wheel(up: true, column: column, row: row)
        case 65: return .wheel(up: false, column: column, row: row)
        case 0: return .click(column: column, row: row)
        default: return .other
        }
    }

    /// APC / DCS / OSC strings, ended by ST (ESC \) or BEL: only the kitty graphics reply matters.
    private static func parseString(_ b: [UInt8], at i: Int) -> (TerminalInput, Int)? {
        var j = i + 2
        while j < b.count {
            if b[j] == 0x07 { break }
            if b[j] == 0x1b, j + 1 < b.count, b[j + 1] == UInt8(ascii: "\\") { break }
            if b[j] == 0x1b, j + 1 >= b.count { return nil }
            j += 1
        }
        guard j < b.count else { return nil }
        let body = String(decoding: b[(i + 2)..<j], as: UTF8.self)
        let length = j - i + (b[j] == 0x07 ? 1 : 2)
        if b[i + 1] == UInt8(ascii: "_"), body.hasPrefix("G") {
            return (.kittyGraphicsReply(ok: body.hasSuffix(";OK")), length)
        }
        return (.other, length)
    }
}
