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
    /// Camera RAW: the container family the header walk found ("CR2", "DNG", "RAF"), shown
    /// beside the format ("RAW (CR2)"); nil for other formats and for a RAW told only as TIFF.
    public var container: String?
    /// Camera RAW: the largest embedded JPEG preview with the picture's aspect (stored axes),
    /// so a job's memory is estimated on what it decodes (`ImageCodec.decodeBytes`); nil: none.
    public var previewWidth: Int?
    public var previewHeight: Int?

    public init(format: PhotoFormat, storedWidth: Int, storedHeight: Int,
                orientation: Orientation = .up, dateTimeOriginal: String? = nil) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
    }

    /// The format as users see it: "JPEG", or "RAW (CR2)" with the container family.
    public var formatName: String {
        container.map { "\(format.displayName) (\($0))" } ?? format.displayName
    }

    /// Size as displayed, after orientation.
    public var displayWidth: Int { orientation.swapsAxes ? storedHeight : storedWidth }
    public var displayHeight: Int { orientation.swapsAxes ? storedWidth : storedHeight }
}
