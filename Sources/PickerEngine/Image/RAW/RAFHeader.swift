import PickerProtocol

/// Fujifilm RAF: a 16-byte magic, then big-endian offsets: at 84 the embedded JPEG's offset and
/// length, at 100 the sensor data's (CFA) offset and length. The size and orientation are taken
/// from the embedded JPEG's own header and EXIF (RAF's own size records are not read).
enum RAFHeader {
    static let jpegOffsetField = 84
    static let sensorOffsetField = 100

    static func layout<S: RAWByteSource>(_ source: inout S) throws(RAWLayoutError) -> RAWLayout {
        guard let offset = source.u32(at: jpegOffsetField, bigEndian: true),
              let length = source.u32(at: jpegOffsetField + 4, bigEndian: true), length > 2,
              source.contains(offset: offset, count: length),
              let jpeg = source.bytes(at: offset, count: length), jpeg.starts(with: [0xFF, 0xD8])
        else { throw .damaged("no embedded JPEG inside the file") }
        let header: ImageHeader
        do throws(PickerError) {
            header = try ImageHeaderReader.read(bytes: jpeg, name: "preview")
        } catch {
            throw .damaged("its embedded JPEG: \(error.message)")
        }
        var layout = RAWLayout(kind: .raf, size: PixelSize(width: header.storedWidth, height: header.storedHeight))
        layout.orientation = header.orientation
        layout.dateTimeOriginal = header.dateTimeOriginal
        layout.previews = [RAWPreview(range: offset..<(offset + length))]
        if let sensorOffset = source.u32(at: sensorOffsetField, bigEndian: true),
           let sensorLength = source.u32(at: sensorOffsetField + 4, bigEndian: true), sensorLength > 0,
           source.contains(offset: sensorOffset, count: sensorLength) {
            layout.sensorData = [sensorOffset..<(sensorOffset + sensorLength)]
        }
        return layout
    }
}
