import PickerProtocol

/// The kitty graphics protocol: the daemon's PNG sent as `f=100` in 4096-byte base64 chunks under one
/// image id, which is deleted (`a=d,d=I`) before anything else is drawn there.
struct KittyGraphics: GraphicsBackend {
    var passthrough: Passthrough
    var kind: GraphicsKind { .kitty }
    /// One id for the picture in the pane; reusing it means a new picture replaces the old.
    static let imageID = 7301

    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] {
        var out = Array(ScreenText.moveTo(column: rect.column, row: rect.row).utf8)
        let payload = Base64.encode(image.data)
        var offset = 0
        var first = true
        repeat {
            let end = min(offset + 4096, payload.count)
            let more = end < payload.count ? 1 : 0
            let keys = first ? "a=T,f=100,i=\(Self.imageID),q=2,C=1,m=\(more)" : "m=\(more)"
            var chunk = Array("\u{1b}_G\(keys);".utf8)
            chunk += payload[offset..<end]
            chunk += Array("\u{1b}\\".utf8)
            out += passthrough.wrap(chunk)
            offset = end
            first = false
        } while offset < payload.count
        return out
    }

    func erase(_ rect: CellRect) -> [UInt8] {
        passthrough.wrap(Array("\u{1b}_Ga=d,d=I,i=\(Self.imageID),q=2\u{1b}\\".utf8)) + ScreenText.blank(rect)
    }
}

/// iTerm2's inline images (OSC 1337 File=), also spoken by WezTerm and Konsole: the PNG as it is.
struct ITermGraphics: GraphicsBackend {
    var kind: GraphicsKind { .iterm }

    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] {
        var out = Array(ScreenText.moveTo(column: rect.column, row: rect.row).utf8)
        out += Array("\u{1b}]1337;File=inline=1;size=\(image.data.count);width=\(image.width)px;height=\(image.height)px;preserveAspectRatio=1;doNotMoveCursor=1:".utf8)
        out += Base64.encode(image.data)
        out.append(0x07)
        return out
    }
}

/// Sixel: the daemon renders the DCS sequence (libchafa) already fitted to the pane.
struct SixelGraphics: GraphicsBackend {
    var passthrough: Passthrough
    var kind: GraphicsKind { .sixel }
    var showsPNG: Bool { false }

    func imageRequest(session: String, rect: CellRect) -> Request? { TerminalImageRequests.sixel(session: session) }

    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? {
        TerminalImageRequests.sixelPreview(session: session, pixels: pixels)
    }

    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] {
        Array(ScreenText.moveTo(column: rect.column, row: rect.row).utf8) + passthrough.wrap(image.data)
    }
}

/// Coloured Unicode symbols rendered by the daemon (libchafa) for the pane's cells: works in every
/// terminal with 24-bit colour, tmux without passthrough included.
struct SymbolGraphics: GraphicsBackend {
    var kind: GraphicsKind { .symbols }
    var showsPNG: Bool { false }

    func imageRequest(session: String, rect: CellRect) -> Request? {
        TerminalImageRequests.symbols(session: session, columns: rect.width, rows: rect.height)
    }

    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? {
        TerminalImageRequests.symbolsPreview(session: session, columns: rect.width, rows: rect.height, pixels: pixels)
    }

    /// The reply's rows, each drawn at its own row of the pane (rows end in "\n").
    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] {
        var out: [UInt8] = []
        var row = 0
        for line in image.data.split(separator: 0x0a, omittingEmptySubsequences: false) where row < rect.height {
            out += Array(ScreenText.moveTo(column: rect.column, row: rect.row + row).utf8)
            out += line
            row += 1
        }
        return out + Array("\u{1b}[0m".utf8)
    }
}

/// No pictures: the pane names the photo's size instead.
struct TextOnlyGraphics: GraphicsBackend {
    var kind: GraphicsKind { .none }
    var showsPNG: Bool { false }
    func imageRequest(session: String, rect: CellRect) -> Request? { nil }
    func previewRequest(session: String, rect: CellRect, pixels: (width: Int, height: Int)) -> Request? { nil }
    func draw(_ image: EncodedImage, in rect: CellRect) -> [UInt8] { [] }
}
