import PickerProtocol

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
