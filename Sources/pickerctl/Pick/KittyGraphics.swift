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
            // Only the first chunk places the image: the spot travels with it through tmux.
            out += passthrough.wrap(chunk, at: first ? (rect.column, rect.row) : nil)
            offset = end
            first = false
        } while offset < payload.count
        return out
    }

    func erase(_ rect: CellRect) -> [UInt8] {
        passthrough.wrap(Array("\u{1b}_Ga=d,d=I,i=\(Self.imageID),q=2\u{1b}\\".utf8)) + ScreenText.blank(rect)
    }
}
