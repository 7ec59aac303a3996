import PickerProtocol

/// Tells an image format from a file's first bytes (never from its name), through the codec table.
public enum FormatSniffer {
    /// How many leading bytes `sniff` looks at (HEIF's `ftyp` box lists its brands there).
    public static let bytesNeeded = 64

    /// The format whose magic bytes `prefix` starts with, or nil when it is none we read.
    /// Each codec's `sniff` says what it looks for.
    public static func sniff<C: Collection>(_ prefix: C) -> PhotoFormat? where C.Element == UInt8 {
        let head = Array(prefix.prefix(bytesNeeded))[...]
        return ImageCodecs.all.first { $0.sniff(head) }?.format
    }
}
