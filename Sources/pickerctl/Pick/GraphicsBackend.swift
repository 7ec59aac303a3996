import PickerProtocol

/// The ways a picture can reach the terminal. `--graphics` names them.
enum GraphicsKind: String, CaseIterable {
    case kitty, iterm, sixel, symbols, none
}

/// Draws the daemon's pictures into a pane of the terminal. Each back-end says which request gets it a
/// picture for a pane (`request`), how to draw the reply (`draw`), and how to take a picture away again
/// (`erase`), so no image is ever left behind when the photo, the mode or the size changes.
protocol GraphicsBackend {
    var kind: GraphicsKind { get }
    /// Whether PNG pictures (the thumbnail grid) can be shown; text back-ends show the grid as text.
    var showsPNG: Bool { get }
    /// The request for the session's current photo drawn in `rect` (the session's pane is already its pixel size).
    func imageRequest(session: String, rect: CellRect) -> Request?
    /// The full-screen preview request for `rect`, `pixels` in size.
    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request?
    /// Bytes that draw `image` with its top-left corner at `rect`'s.
    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8]
    /// Bytes that remove what `draw` put in `rect`.
    func erase(_ rect: CellRect) -> [UInt8]
}

extension GraphicsBackend {
    var showsPNG: Bool { true }

    func imageRequest(session: String, rect: CellRect) -> Request? {
        .getImage(ImageRequest(session: session, format: .png))
    }

    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? {
        .preview(PreviewRequest(session: session, width: pixels.width, height: pixels.height, format: .png))
    }

    func erase(_ rect: CellRect) -> [UInt8] { ScreenText.blank(rect) }
}

/// Escape sequences that move the cursor and blank areas, shared by the renderer and the back-ends.
enum ScreenText {
    /// CSI row;column H (0-based in, 1-based on the wire).
    static func moveTo(column: Int, row: Int) -> String { "\u{1b}[\(row + 1);\(column + 1)H" }

    /// Spaces over every cell of `rect`.
    static func blank(_ rect: CellRect) -> [UInt8] {
        var out = "\u{1b}[0m"
        let spaces = String(repeating: " ", count: rect.width)
        for r in 0..<rect.height { out += moveTo(column: rect.column, row: rect.row + r) + spaces }
        return Array(out.utf8)
    }
}

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
