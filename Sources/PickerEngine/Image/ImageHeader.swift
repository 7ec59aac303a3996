import PickerProtocol

/// What a file's header says, read without decoding pixels.
public struct ImageHeader: Sendable, Equatable, Codable {
    public var format: PhotoFormat
    /// Size as stored in the file, before orientation.
    public var storedWidth: Int
    public var storedHeight: Int
    public var orientation: Orientation
    /// EXIF DateTimeOriginal as written ("YYYY:MM:DD HH:MM:SS"), if present and well-formed.
    public var dateTimeOriginal: String?

    public init(format: PhotoFormat, storedWidth: Int, storedHeight: Int,
                orientation: Orientation = .up, dateTimeOriginal: String? = nil) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
    }

    /// Size as displayed, after orientation.
    public var displayWidth: Int { orientation.swapsAxes ? storedHeight : storedWidth }
    public var displayHeight: Int { orientation.swapsAxes ? storedWidth : storedHeight }
}
