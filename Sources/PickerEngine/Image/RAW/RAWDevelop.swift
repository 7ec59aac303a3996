import CPickerCodecs
import PickerProtocol

/// The slow fallback: LibRaw develops the sensor data (pk_raw.c), at half size when that still
/// covers the target. Only asked when the container walk found the sensor data's strips or
/// tiles wholly inside the file and large enough: LibRaw 0.20.2 "develops" stripped files into
/// noise without an error, reading past what the file holds.
enum RAWDevelop {
    /// The developed picture in stored orientation.
    /// - Throws: `.corruptImage` (sensor data missing or damaged), `.unsupportedImage` (CR3, or
    ///   what LibRaw does not read), `.imageTooLarge`, `.cancelled`; messages name the photo.
    static func develop(_ data: [UInt8], layout: RAWLayout, storedTarget: PixelSize?, maxPixels: Int,
                        photoName: String) throws(PickerError) -> PixelImage {
        if layout.kind == .cr3 {
            throw PickerError(.unsupportedImage, "\(photoName): no embedded preview covers the picture, and "
                              + "LibRaw 0.20 cannot develop CR3 sensor data")
        }
        guard let sensor = layout.sensorData else {
            throw PickerError(.corruptImage, "\(photoName): corrupt RAW data: no usable embedded preview, "
                              + "and the sensor data does not lie inside the file")
        }
        guard layout.sensorDataLooksWhole else {
            let held = sensor.reduce(0) { $0 + $1.count }
            throw PickerError(.corruptImage, "\(photoName): corrupt RAW data: no usable embedded preview, and the "
                              + "sensor data is missing (\(held) bytes for a \(layout.size) picture)")
        }
        try checkLossyTiles(data, layout: layout, photoName: photoName)
        let half = storedTarget.map { 2 * $0.width <= layout.size.width && 2 * $0.height <= layout.size.height } ?? false
        var message = CodecResult.messageBuffer()
        var image = pk_image()
        let status = data.withUnsafeBufferPointer { buffer in
            pk_raw_develop(buffer.baseAddress, buffer.count, half ? 1 : 0, CodecResult.cap(maxPixels), &image, &message)
        }
        guard status == 0 else {
            throw CodecResult.error(status: status, message: CodecResult.text(message), formatName: "RAW",
                                    photoName: photoName)
        }
        guard let result = CodecResult.adopt(image) else {
            throw PickerError(.internal, "\(photoName): LibRaw returned no pixels")
        }
        return result
    }

    /// Lossy DNG keeps its sensor data as JPEG tiles: each must decode here first (at 1/8, which still
    /// reads all entropy data), because LibRaw 0.20.2 leaks libjpeg's decoder when a tile is damaged
    /// (found by the raw fuzz target: `lossy_dng_load_raw` never destroys it on its error path).
    static func checkLossyTiles(_ data: [UInt8], layout: RAWLayout, photoName: String) throws(PickerError) {
        guard layout.sensorCompression == 34892, let tiles = layout.sensorData else { return }
        for (index, tile) in tiles.enumerated() {
            do throws(PickerError) {
                _ = try JPEGDecoder.decode(Array(data[tile]), scaleDenominator: 8, maxPixels: 64 << 20, photoName: photoName)
            } catch {
                let why = error.message.hasPrefix("\(photoName): ") ? String(error.message.dropFirst(photoName.count + 2)) : error.message
                throw PickerError(.corruptImage, "\(photoName): corrupt RAW data: sensor tile \(index + 1) of \(tiles.count) "
                                  + "does not decode (\(why))")
            }
        }
    }
}
