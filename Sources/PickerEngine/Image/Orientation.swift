/// EXIF orientation (tag 0x0112). Values outside 1...8 (including 0) count as `.up`.
public enum Orientation: Int, Sendable, Equatable, Codable {
    case up = 1             // as stored
    case upMirrored = 2     // mirror horizontal
    case down = 3           // rotate 180
    case downMirrored = 4   // mirror vertical
    case leftMirrored = 5   // transpose
    case right = 6          // rotate 90 CW to display
    case rightMirrored = 7  // transverse
    case left = 8           // rotate 270 CW (90 CCW) to display

    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// True when the displayed picture has width and height swapped relative to the stored one.
    public var swapsAxes: Bool { rawValue >= 5 }
}
