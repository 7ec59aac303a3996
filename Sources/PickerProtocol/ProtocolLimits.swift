/// Version and size limits both ends agree on during the handshake.
public enum ProtocolLimits {
    /// The protocol version this build speaks.
    public static let version: UInt16 = 1
    /// Bytes after the length prefix: type (1) + request id (4).
    public static let headerSize = 5
    /// Largest request frame (the length field's value) a server accepts: 1 MiB.
    public static let maxRequestFrame: UInt32 = 1 << 20
    /// Largest reply frame a server sends (an image can be big): 256 MiB.
    public static let maxReplyFrame: UInt32 = 256 << 20
    /// Pane sides (session width and height, preview screen) in pixels: the one declaration,
    /// read by the engine's validation and by pickerctl's option checks.
    public static let paneSizeRange = 16...8192
    /// Thumbnail grid cell sides in pixels.
    public static let cellSizeRange = 16...1024
}
