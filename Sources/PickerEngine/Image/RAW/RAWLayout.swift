/// An embedded JPEG preview of a RAW file: where its bytes lie (checked inside the file).
struct RAWPreview: Sendable, Equatable {
    let range: Range<Int>
}

/// What the container walk found in a camera RAW file: enough to list it (developed size,
/// orientation, date) and to show it (its JPEG previews; where its sensor data lies).
struct RAWLayout: Sendable {
    var kind: RAWKind
    /// The developed picture's size as stored (before orientation): what listings show.
    var size: PixelSize
    /// The orientation in IFD0 (CR3: CMT1), applied to the previews and the developed picture.
    var orientation: Orientation = .up
    var dateTimeOriginal: String?
    /// Every embedded JPEG wholly inside the file, in the order found.
    var previews: [RAWPreview] = []
    /// The strips or tiles of the sensor data, each inside the file; nil when they were not
    /// found (LibRaw is then not asked to develop: it would read whatever lies there).
    var sensorData: [Range<Int>]?
    /// The sensor IFD's TIFF compression (34892: lossy DNG, JPEG tiles), when known.
    var sensorCompression: Int?

    /// True when the sensor data's ranges hold at least what a compressed sensor of `size`
    /// needs (1/32 byte a pixel: far below any real encoding, far above a stripped stub).
    var sensorDataLooksWhole: Bool {
        guard let sensorData, !sensorData.isEmpty, size.width > 0, size.height > 0 else { return false }
        let total = sensorData.reduce(0) { $0 + $1.count }
        return total >= size.width / 4 * (size.height / 8)
    }
}

/// Why a file could not be laid out as a camera RAW.
enum RAWLayoutError: Error, Equatable {
    /// Damaged or missing structure (a RAW that cannot be listed).
    case damaged(String)
    /// A TIFF that names no camera: not a RAW, and not a format pickerd reads.
    case plainTIFF
}

extension RAWLayout {
    /// Walks the container of a file of `kind`.
    static func read<S: RAWByteSource>(_ source: inout S, kind: RAWKind) throws(RAWLayoutError) -> RAWLayout {
        switch kind {
        case .cr3: return try CR3Boxes.layout(&source)
        case .raf: return try RAFHeader.layout(&source)
        case .tiff, .dng, .cr2, .orf, .rw2: return try tiff(&source, kind: kind)
        }
    }
}
