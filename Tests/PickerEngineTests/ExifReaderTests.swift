import Testing
@testable import PickerEngine

@Suite("ExifReader")
struct ExifReaderTests {
    @Test(arguments: [true, false], Array(0...9))
    func orientationIsReadInBothByteOrders(littleEndian: Bool, value: Int) {
        let blob = TIFFBuilder.make(littleEndian: littleEndian, orientation: UInt16(value), dateTimeOriginal: nil)
        let info = ExifReader.parse(blob)
        #expect(info.rawOrientation == value)
        let expected: Orientation = (1...8).contains(value) ? Orientation(rawValue: value) ?? .up : .up
        #expect(info.orientation == expected)
    }

    @Test(arguments: [true, false])
    func dateTimeOriginalIsReadFromTheExifSubIFD(littleEndian: Bool) {
        let blob = TIFFBuilder.make(littleEndian: littleEndian, orientation: 6, dateTimeOriginal: "2024:05:06 07:08:09")
        let info = ExifReader.parse(blob)
        #expect(info.rawOrientation == 6)
        #expect(info.dateTimeOriginal == "2024:05:06 07:08:09")
    }

    @Test func exifPrefixIsAccepted() {
        let blob = Array("Exif".utf8) + [0, 0] + TIFFBuilder.make(littleEndian: true, orientation: 8, dateTimeOriginal: nil)
        #expect(ExifReader.parse(blob).orientation == .left)
    }

    @Test func missingOrientationMeansUp() {
        let blob = TIFFBuilder.make(littleEndian: true, orientation: nil, dateTimeOriginal: "2020:01:01 00:00:00")
        let info = ExifReader.parse(blob)
        #expect(info.rawOrientation == nil)
        #expect(info.orientation == .up)
        #expect(info.dateTimeOriginal == "2020:01:01 00:00:00")
    }

    @Test func orientationStoredAsLongIsAccepted() {
        let le = true
        var blob: [UInt8] = [0x49, 0x49, 0x2A, 0] + TIFFBuilder.u32(8, le)
        blob += TIFFBuilder.ifd([.init(tag: 0x0112, type: 4, count: 1, value: TIFFBuilder.u32(3, le))], le)
        #expect(ExifReader.parse(blob).orientation == .down)
    }

    @Test(arguments: [true, false])
    func everyTruncationIsHandledWithoutCrashing(littleEndian: Bool) {
        let blob = TIFFBuilder.make(littleEndian: littleEndian, orientation: 3, dateTimeOriginal: "2021:02:03 04:05:06")
        for cut in 0..<blob.count {
            let info = ExifReader.parse(Array(blob[0..<cut]))
            // A cut inside the string drops the date; a cut before the entry drops the orientation.
            if cut < 8 + 2 + 12 { #expect(info.rawOrientation == nil) }
            if cut < blob.count { #expect(info.dateTimeOriginal == nil) }
        }
        #expect(ExifReader.parse(blob).dateTimeOriginal == "2021:02:03 04:05:06")
    }

    @Test func exifPointerBackToIFD0Terminates() {
        let le = false
        var blob: [UInt8] = [0x4D, 0x4D, 0, 0x2A] + TIFFBuilder.u32(8, le)
        blob += TIFFBuilder.ifd([
            .init(tag: 0x0112, type: 3, count: 1, value: TIFFBuilder.u16(6, le) + [0, 0]),
            .init(tag: 0x8769, type: 4, count: 1, value: TIFFBuilder.u32(8, le)),
        ], next: 8, le)
        let info = ExifReader.parse(blob)
        #expect(info.orientation == .right)
        #expect(info.dateTimeOriginal == nil)
    }

    @Test func exifSubIFDPointingIntoItselfAndBeyondTheEndTerminates() {
        let le = true
        var blob: [UInt8] = [0x49, 0x49, 0x2A, 0] + TIFFBuilder.u32(8, le)
        blob += TIFFBuilder.ifd([.init(tag: 0x8769, type: 4, count: 1, value: TIFFBuilder.u32(26, le))], next: 26, le)
        // The sub-IFD at 26 claims 65535 entries and points at itself as next IFD.
        blob += TIFFBuilder.u16(0xFFFF, le) + TIFFBuilder.u32(26, le)
        #expect(ExifReader.parse(blob) == ExifInfo())
        var far = blob
        far.replaceSubrange(18..<22, with: TIFFBuilder.u32(0xFFFF_FFF0, le))
        #expect(ExifReader.parse(far) == ExifInfo())
    }

    @Test func ifd0OffsetInsideTheHeaderOrPastTheEndYieldsNothing() {
        for offset: UInt32 in [0, 4, 7, 1000, 0xFFFF_FFFF] {
            let blob: [UInt8] = [0x49, 0x49, 0x2A, 0] + TIFFBuilder.u32(offset, true) + [1, 0, 0x12, 1, 3, 0, 1, 0, 0, 0, 6, 0]
            #expect(ExifReader.parse(blob).rawOrientation == nil)
        }
    }

    @Test func notATIFFHeaderYieldsNothing() {
        #expect(ExifReader.parse([]) == ExifInfo())
        #expect(ExifReader.parse(Array("Exif\0\0".utf8)) == ExifInfo())
        #expect(ExifReader.parse(Array("XX*\0\u{8}\0\0\0".utf8)) == ExifInfo())
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let count = Int(rng.next() % 200)
            var blob = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if blob.count >= 8, rng.next() % 2 == 0 {
                blob.replaceSubrange(0..<8, with: [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0])
            }
            _ = ExifReader.parse(blob)
        }
    }

    @Test func malformedDatesAreDropped() {
        for bad in ["0000:00:00 00:00:00", "2024:13:01 00:00:00", "2024:01:01", "    :  :     :  :  ", "2024:01:01 25:00:00"] {
            let blob = TIFFBuilder.make(littleEndian: true, orientation: nil, dateTimeOriginal: bad)
            #expect(ExifReader.parse(blob).dateTimeOriginal == nil, "\(bad)")
        }
    }

    @Test func exifDateTimeConvertsToSecondsAsUTC() {
        #expect(ExifDateTime.secondsSinceEpoch("2024:01:02 03:04:05") == 1_704_164_645)
        #expect(ExifDateTime.secondsSinceEpoch("2000:02:29 12:00:00") == 951_825_600)
        #expect(ExifDateTime.secondsSinceEpoch("1969:12:31 23:59:59") == -1)
        #expect(ExifDateTime.secondsSinceEpoch("2024-01-02 03:04:05") == 1_704_164_645)
        #expect(ExifDateTime.secondsSinceEpoch("garbage") == nil)
        #expect(ExifDateTime.normalized("2024:01:02 03:04:05\0 ") == "2024:01:02 03:04:05")
    }
}

/// Deterministic PRNG for fuzz-style tests.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
