import PickerProtocol
import PickerSystem

/// Identifies one rendered result: the version of the file it was made from (device, inode,
/// size, mtime, from `fstat` of the descriptor opened beneath the library root) plus what was asked.
/// A path is not part of it: a path can lead to another file a moment later, an identity cannot.
public struct RenderKey: Hashable, Sendable {
    public var file: FileVersion
    public var width: Int
    public var height: Int
    public var format: ImageFormat
    public var quality: Int
    /// Distinguishes kinds of output of the same size (fit, thumbnail cell, preview).
    public var variant: UInt8
    /// The cell grid of `symbols` output; nil for every other format.
    public var cells: TerminalCells?

    public init(file: FileVersion, width: Int, height: Int, format: ImageFormat, quality: Int, variant: UInt8 = 0,
                cells: TerminalCells? = nil) {
        self.cells = cells
        self.file = file
        self.width = width
        self.height = height
        self.format = format
        self.quality = quality
        self.variant = variant
    }
}
