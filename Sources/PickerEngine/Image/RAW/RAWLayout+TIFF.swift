/// TIFF-based RAWs (DNG, CR2, NEF, ARW, PEF, ORF, RW2): their IFDs give the size, orientation,
/// date, the JPEG previews and the sensor data's strips or tiles.
extension RAWLayout {
    /// TIFF tags used here.
    enum Tag {
        static let newSubfileType = 0x00FE, width = 0x0100, height = 0x0101, compression = 0x0103
        static let photometric = 0x0106, make = 0x010F, stripOffsets = 0x0111, orientation = 0x0112
        static let stripByteCounts = 0x0117, tileOffsets = 0x0144, tileByteCounts = 0x0145
        static let jpegOffset = 0x0201, jpegLength = 0x0202, dngVersion = 0xC612, defaultCropSize = 0xC620
        static let dateTimeOriginal = 0x9003, pixelXDimension = 0xA002, pixelYDimension = 0xA003
        // Panasonic RW2 IFD0.
        static let rw2SensorWidth = 0x0002, rw2SensorHeight = 0x0003, rw2Top = 0x0004, rw2Left = 0x0005
        static let rw2Bottom = 0x0006, rw2Right = 0x0007, rw2JpgFromRaw = 0x002E, rw2RawDataOffset = 0x0118
    }

    /// Photometric interpretations of sensor data: colour filter array, linear raw (DNG).
    static let sensorPhotometrics: Set<Int> = [32803, 34892]
    /// Compressions only camera sensor data uses (Sony, Nikon, Pentax, lossy DNG; 99: lossless JPEG in some).
    static let sensorCompressions: Set<Int> = [32767, 32769, 32770, 34713, 34892, 65535]

    static func tiff<S: RAWByteSource>(_ source: inout S, kind sniffed: RAWKind) throws(RAWLayoutError) -> RAWLayout {
        guard let walk = TIFFWalk(&source), let ifd0 = walk.directories.first else {
            throw .damaged("no readable IFD0")
        }
        let kind = try tiffKind(sniffed, walk: walk, ifd0: ifd0, &source)
        let sensor = sensorDirectory(walk, kind: kind, &source)
        var layout = RAWLayout(kind: kind, size: developedSize(walk, ifd0: ifd0, sensor: sensor, kind: kind, &source))
        guard layout.size.width > 0, layout.size.height > 0 else { throw .damaged("no picture size in the IFDs") }
        layout.orientation = Orientation(exifValue: walk.int(ifd0.entries[Tag.orientation], &source) ?? 1)
        if let exif = walk.directories.first(where: { $0.role == .exif }),
           let text = walk.ascii(exif.entries[Tag.dateTimeOriginal], &source) {
            layout.dateTimeOriginal = ExifDateTime.normalized(text)
        }
        layout.previews = walk.directories.flatMap { directory in
            previews(in: directory, walk: walk, isSensor: directory.offset == sensor?.offset, &source)
        }
        layout.sensorData = sensor.flatMap { sensorRanges($0, walk: walk, kind: kind, &source) }
        layout.sensorCompression = sensor.flatMap { walk.int($0.entries[Tag.compression], &source) }
        return layout
    }

    /// DNG by its DNGVersion; another camera TIFF by a Make and sensor data; else a plain TIFF.
    private static func tiffKind<S: RAWByteSource>(_ sniffed: RAWKind, walk: TIFFWalk, ifd0: TIFFDirectory,
                                                   _ source: inout S) throws(RAWLayoutError) -> RAWKind {
        guard sniffed == .tiff else { return sniffed }
        if ifd0.entries[Tag.dngVersion] != nil { return .dng }
        let hasSensorData = walk.directories.contains { d in
            sensorPhotometrics.contains(walk.int(d.entries[Tag.photometric], &source) ?? 0)
                || sensorCompressions.contains(walk.int(d.entries[Tag.compression], &source) ?? 0)
        }
        guard ifd0.entries[Tag.make] != nil, hasSensorData else { throw .plainTIFF }
        return .tiff
    }

    /// The IFD holding the sensor data.
    private static func sensorDirectory<S: RAWByteSource>(_ walk: TIFFWalk, kind: RAWKind,
                                                          _ source: inout S) -> TIFFDirectory? {
        switch kind {
        case .cr2: return walk.directories.first { $0.role == .chained(3) }
        case .rw2: return walk.directories.first
        default: break
        }
        let sensor = walk.directories.filter { d in
            sensorPhotometrics.contains(walk.int(d.entries[Tag.photometric], &source) ?? 0)
                && (walk.int(d.entries[Tag.newSubfileType], &source) ?? 0) & 1 == 0
        }
        if let first = sensor.first { return first }
        // ORF and older files: the largest IFD with strips that is not a JPEG preview.
        return walk.directories.filter { d in
            d.entries[Tag.stripOffsets] != nil && ![6, 7].contains(walk.int(d.entries[Tag.compression], &source) ?? 1)
        }.max { area($0, walk, &source) < area($1, walk, &source) }
    }

    private static func area<S: RAWByteSource>(_ d: TIFFDirectory, _ walk: TIFFWalk, _ source: inout S) -> Int {
        let w = walk.int(d.entries[Tag.width], &source) ?? 0, h = walk.int(d.entries[Tag.height], &source) ?? 0
        return w.multipliedReportingOverflow(by: h).overflow ? 0 : w * h
    }

    /// The developed size: DNG's DefaultCropSize, RW2's borders, EXIF's pixel dimensions, else the sensor IFD's.
    private static func developedSize<S: RAWByteSource>(_ walk: TIFFWalk, ifd0: TIFFDirectory, sensor: TIFFDirectory?,
                                                        kind: RAWKind, _ source: inout S) -> PixelSize {
        func pair(_ d: TIFFDirectory?, _ w: Int, _ h: Int) -> PixelSize? {
            guard let d, let a = walk.int(d.entries[w], &source), let b = walk.int(d.entries[h], &source),
                  a > 0, b > 0 else { return nil }
            return PixelSize(width: a, height: b)
        }
        if kind == .rw2 {
            let b = [Tag.rw2Top, Tag.rw2Left, Tag.rw2Bottom, Tag.rw2Right].map { walk.int(ifd0.entries[$0], &source) ?? -1 }
            if b[2] > b[0], b[3] > b[1], b[0] >= 0, b[1] >= 0 {
                return PixelSize(width: b[3] - b[1], height: b[2] - b[0])
            }
            return pair(ifd0, Tag.rw2SensorWidth, Tag.rw2SensorHeight) ?? PixelSize(width: 0, height: 0)
        }
        if kind == .dng, let sensor, let crop = walk.values(sensor.entries[Tag.defaultCropSize], &source),
           crop.count == 2, crop[0] > 0, crop[1] > 0 {
            return PixelSize(width: crop[0], height: crop[1])
        }
        let exif = walk.directories.first { $0.role == .exif }
        return pair(exif, Tag.pixelXDimension, Tag.pixelYDimension) ?? pair(sensor, Tag.width, Tag.height)
            ?? pair(ifd0, Tag.width, Tag.height) ?? PixelSize(width: 0, height: 0)
    }

    /// The JPEGs one IFD points at: a JPEGInterchangeFormat pair, a single JPEG strip (DNG, NEF,
    /// CR2 previews), RW2's JpgFromRaw. Only ranges wholly inside the file starting with SOI.
    private static func previews<S: RAWByteSource>(in d: TIFFDirectory, walk: TIFFWalk, isSensor: Bool,
                                                   _ source: inout S) -> [RAWPreview] {
        var ranges: [Range<Int>] = []
        if let offset = walk.int(d.entries[Tag.jpegOffset], &source),
           let length = walk.int(d.entries[Tag.jpegLength], &source) {
            ranges.append(walk.base + offset..<(walk.base + offset + max(0, length)))
        }
        let compression = walk.int(d.entries[Tag.compression], &source) ?? 1
        if !isSensor, [6, 7].contains(compression),
           let offsets = walk.values(d.entries[Tag.stripOffsets], &source),
           let counts = walk.values(d.entries[Tag.stripByteCounts], &source), offsets.count == 1, counts.count == 1 {
            ranges.append(walk.base + offsets[0]..<(walk.base + offsets[0] + counts[0]))
        }
        if d.role == .ifd0, let blob = walk.blobRange(d.entries[Tag.rw2JpgFromRaw], &source) {
            ranges.append(blob)
        }
        return ranges.filter { r in
            r.count > 2 && source.contains(offset: r.lowerBound, count: r.count)
                && source.bytes(at: r.lowerBound, count: 2) == [0xFF, 0xD8]
        }.map(RAWPreview.init)
    }

    /// The sensor IFD's strips or tiles, each wholly inside the file; nil when any is not.
    private static func sensorRanges<S: RAWByteSource>(_ d: TIFFDirectory, walk: TIFFWalk, kind: RAWKind,
                                                       _ source: inout S) -> [Range<Int>]? {
        let offsetsTag = d.entries[Tag.tileOffsets] != nil ? Tag.tileOffsets : Tag.stripOffsets
        let countsTag = offsetsTag == Tag.tileOffsets ? Tag.tileByteCounts : Tag.stripByteCounts
        let offsets = walk.values(d.entries[offsetsTag], &source)
            ?? (kind == .rw2 ? walk.values(d.entries[Tag.rw2RawDataOffset], &source) : nil)
        guard let offsets, !offsets.isEmpty else { return nil }
        var counts = walk.values(d.entries[countsTag], &source)
        // RW2 often leaves the byte count out (or 0): the data runs to the end of the file.
        if kind == .rw2, offsets.count == 1, counts == nil || counts == [0] { counts = [source.size - walk.base - offsets[0]] }
        guard let counts, counts.count == offsets.count else { return nil }
        var ranges: [Range<Int>] = []
        for (offset, count) in zip(offsets, counts) {
            guard count > 0, source.contains(offset: walk.base + offset, count: count) else { return nil }
            ranges.append((walk.base + offset)..<(walk.base + offset + count))
        }
        return ranges
    }
}
