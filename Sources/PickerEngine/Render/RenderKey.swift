import PickerProtocol

/// Identifies one rendered result: the file's identity (path, size, mtime) plus what was asked.
public struct RenderKey: Hashable, Sendable {
    public var path: String
    public var fileSize: Int64
    public var mtimeSeconds: Int64
    public var mtimeNanoseconds: Int64
    public var width: Int
    public var height: Int
    public var format: ImageFormat
    public var quality: Int
    /// Distinguishes kinds of output of the same size (fit, thumbnail cell, preview).
    public var variant: UInt8

    public init(path: String, fileSize: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64,
                width: Int, height: Int, format: ImageFormat, quality: Int, variant: UInt8 = 0) {
        self.path = path
        self.fileSize = fileSize
        self.mtimeSeconds = mtimeSeconds
        self.mtimeNanoseconds = mtimeNanoseconds
        self.width = width
        self.height = height
        self.format = format
        self.quality = quality
        self.variant = variant
    }
}

