/// The `?` overlay: every key, in the words of `pickerctl pick --help` (issue 24 item 6).
enum PickHelp {
    /// The keys column is this wide, so the words line up whichever glyphs name the arrows.
    private static let keysWidth = 16

    /// Keys and what they do; the arrows in the locale's glyphs.
    static func keys(_ g: PickGlyphs) -> [(keys: String, does: String)] {
        [
            ("\(g.up) \(g.down)  j k", "move (in the photo list the photo becomes current at once)"),
            ("Tab  \(g.right) l  \(g.left) h", "switch pane (in the grid: move left / right)"),
            ("Enter", "on an album: open it; in the photo list: accept; in the grid: preview"),
            ("Home  End G", "first / last"),
            ("PageUp PageDown", "a page up / down"),
            ("Space", "pick / unpick the current photo"),
            ("/", "filter the focused list as you type, fuzzily as fzf (Enter keeps it, Esc clears it)"),
            ("g", "thumbnail grid on / off (the heading shows its page N/M)"),
            ("p", "the current photo full-screen: n \(g.right) / p \(g.left) step through the album, Space picks,"),
            ("", "z 1:1 on / off (then h j k l or the arrows move the view), Esc (q, Enter) returns to where you were"),
            ("i", "the photo's details (camera, lens, exposure, date, size, format) on the top line, on / off"),
            ("1-9", "the app's choices in the status row: a check box on / off, a list to its next option"),
            ("?", "this help; any key closes it"),
            ("Esc  q  Ctrl-C", "cancel (exit 3)"),
            ("mouse", "click selects, wheel scrolls"),
        ]
    }

    static func lines(_ g: PickGlyphs) -> [String] {
        ["Keys", ""] + keys(g).map { key in
            "  " + key.keys + String(repeating: " ", count: max(1, keysWidth - TerminalColumns.width(of: key.keys))) + key.does
        }
    }

    /// The overlay's rows: the lines from row 2, and how to leave at the bottom.
    static func rows(_ layout: PickLayout) -> [Int: ScreenRow] {
        let g = layout.glyphs
        var rows: [Int: ScreenRow] = [:]
        for (i, line) in lines(g).enumerated() where 2 + i < layout.helpRow {
            rows[2 + i] = ScreenRow(column: 0, text: (i == 0 ? "\u{1b}[1m" : "") + PickRenderer.fit(line, layout.columns, g))
        }
        rows[layout.helpRow] = ScreenRow(column: 0, text: "\u{1b}[2m" + PickRenderer.fit("any key closes the help", layout.columns, g))
        return rows
    }
}
