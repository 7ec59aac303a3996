import PickerProtocol

/// An encoded picture ready to send: file bytes plus their size and format.
public struct RenderedImage: Sendable, Equatable {
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int
    public var format: ImageFormat

    public init(bytes: [UInt8], width: Int, height: Int, format: ImageFormat) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.format = format
    }
}
