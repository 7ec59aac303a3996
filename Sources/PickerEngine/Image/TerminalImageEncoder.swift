import CPickerTerminal
import PickerProtocol

/// Draws pixels as terminal text with libchafa: `symbols` (Unicode blocks, or blocks, borders
/// and sextants, or ASCII, in 24-bit colour) or `sixel` (a DCS sixel sequence of the picture at
/// its own size).
public enum TerminalImageEncoder {
    /// Draws `image` as symbols of the cells' class fitted into at most `cells` (cells are 1:2,
    /// as 8×16 px); no class, or one this build does not draw, is drawn as `block`.
    ///
    /// - Returns: UTF-8 text, rows separated by "\n", ending with an SGR reset; its width and
    ///   height are the cell grid used (columns, rows), which keeps the picture's aspect.
    /// - Throws: `.internal` when chafa fails.
    public static func symbols(_ image: PixelImage, in cells: TerminalCells) throws(PickerError) -> RenderedImage {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var columns: Int32 = 0
        var rows: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(PK_TERMINAL_MSG_LEN))
        let status = pk_terminal_symbols(image.pixels, Int32(image.width), Int32(image.height), Int32(image.channels),
                                         Int32(cells.columns), Int32(cells.rows), Int32(cells.drawnSymbols.rawValue),
                                         &output, &length, &columns, &rows, &message)
        let text = try adopt(status: status, output, length: length, message: message, format: .symbols)
        return RenderedImage(bytes: text, width: Int(columns), height: Int(rows), format: .symbols)
    }

    /// Draws `image` as one sixel image, pixel for pixel.
    ///
    /// - Returns: the DCS sequence (raster attributes `"1;1;W;H`) followed by an SGR reset; its
    ///   width and height are the sixel's pixels: any width, and the height rounded down to
    ///   whole 6-px bands by leaving the last rows out (a picture under 6 px is stretched to 6).
    /// - Throws: `.internal` when chafa fails.
    public static func sixel(_ image: PixelImage) throws(PickerError) -> RenderedImage {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var drawnHeight: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(PK_TERMINAL_MSG_LEN))
        let status = pk_terminal_sixel(image.pixels, Int32(image.width), Int32(image.height), Int32(image.channels),
                                       &output, &length, &drawnHeight, &message)
        let text = try adopt(status: status, output, length: length, message: message, format: .sixel)
        return RenderedImage(bytes: text, width: image.width, height: Int(drawnHeight), format: .sixel)
    }

    /// Copies the C text into Swift and frees it, or throws the C message.
    private static func adopt(status: Int32, _ output: UnsafeMutablePointer<UInt8>?, length: Int,
                              message: [CChar], format: ImageFormat) throws(PickerError) -> [UInt8] {
        defer { pk_terminal_free(output) }
        guard status == 0, let output else {
            throw PickerError(.internal, "\(format.displayName) drawing failed: \(CodecResult.text(message))")
        }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
