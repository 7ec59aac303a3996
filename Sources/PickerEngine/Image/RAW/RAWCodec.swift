import PickerProtocol

/// Camera RAW files (DNG, CR2, CR3, NEF, ARW, PEF, ORF, RW2, RAF), shown by their embedded
/// JPEG previews and developed by LibRaw only when no preview covers the target.
///
/// The header's size is the developed picture's (what listings show); the picture decoded is
/// usually a preview, smaller: callers resample what they get to the fitted size of the
/// header's, so the preview must have the same aspect ratio (`RAWPreviewChoice`). Previews are
/// stored like the sensor data, so the RAW's own IFD0 orientation turns both upright.
/// A stripped file whose previews are stubs and whose sensor data is gone is refused with a
/// clear error, never shown as noise.
enum RAWCodec: ImageCodec {
    static var format: PhotoFormat { .raw }

    static func sniff(_ head: ArraySlice<UInt8>) -> Bool { RAWKind.sniff(head) != nil }

    static func readHeader(_ source: inout HeaderBytes) throws(HeaderParseError) -> ImageHeader {
        let layout = try layout(&source)
        var header = ImageHeader(format: format, storedWidth: layout.size.width, storedHeight: layout.size.height,
                                 orientation: layout.orientation, dateTimeOriginal: layout.dateTimeOriginal)
        header.container = layout.kind == .tiff ? nil : layout.kind.rawValue
        if let preview = RAWPreviewChoice.largest(layout, &source) {
            header.previewWidth = preview.width
            header.previewHeight = preview.height
        }
        return header
    }

    /// The preview that would serve `storedTarget`, decoded at its DCT scale (3 bytes a pixel,
    /// twice: the decode and its shrunk copy), when the header knows one that covers it; else
    /// LibRaw's develop of the sensor: its raw plane (2 bytes a pixel), the 4-channel 16-bit
    /// image (8, a quarter at half size) and the 8-bit result (3, a quarter at half size).
    static func decodeBytes(_ header: ImageHeader, storedTarget: PixelSize?) -> Int {
        let sensor = PixelSize(width: header.storedWidth, height: header.storedHeight)
        if let target = storedTarget, let w = header.previewWidth, let h = header.previewHeight,
           w >= target.width, h >= target.height {
            let preview = PixelSize(width: w, height: h)
            let scaled = ShrinkFactor.scaledSize(preview, denominator: ShrinkFactor.jpegDenominator(stored: preview, target: target))
            return PixelCount.product(scaled.width, scaled.height, 3, 2)
        }
        let half = storedTarget.map { 2 * $0.width <= sensor.width && 2 * $0.height <= sensor.height } ?? false
        let pixels = PixelCount.product(sensor.width, sensor.height)
        return PixelCount.sum(PixelCount.product(pixels, 2), PixelCount.product(pixels, 11) / (half ? 4 : 1))
    }

    static func decode(_ data: [UInt8], stored: PixelSize, storedTarget: PixelSize?, maxPixels: Int,
                       embeddedThumbnail: Bool, photoName: String) throws(PickerError) -> PixelImage {
        var source = InMemoryBytes(data: data)
        let layout: RAWLayout
        do throws(HeaderParseError) {
            layout = try self.layout(&source)
        } catch {
            throw PickerError(.corruptImage, "\(photoName): corrupt RAW data: \(error.reason)")
        }
        let candidates = RAWPreviewChoice.candidates(layout, data: data)
        if let target = storedTarget,
           let image = RAWPreviewChoice.decode(candidates, covering: target, purpose: embeddedThumbnail ? .cell : .picture,
                                               data: data, maxPixels: maxPixels, photoName: photoName) {
            return image
        }
        do throws(PickerError) {
            return try RAWDevelop.develop(data, layout: layout, storedTarget: storedTarget, maxPixels: maxPixels,
                                          photoName: photoName)
        } catch where error.code == .cancelled || error.code == .imageTooLarge {
            throw error
        } catch {
            // A picture that cannot be developed is shown by its largest preview, when there is a real one.
            if let image = RAWPreviewChoice.standIn(candidates, picture: layout.size, target: storedTarget, data: data,
                                                    maxPixels: maxPixels, photoName: photoName) {
                return image
            }
            throw error
        }
    }

    /// A pane: the largest preview that covers `size`, decoded and resampled in one streaming pass
    /// (`JPEGDecoder.decodeFitted`) to exactly `size`; else decoded as `decode` does and resampled.
    static func decodeFitted(_ data: [UInt8], stored: PixelSize, size: PixelSize, maxPixels: Int,
                             photoName: String) throws(PickerError) -> PixelImage {
        var source = InMemoryBytes(data: data)
        if let layout = try? self.layout(&source) {
            let candidates = RAWPreviewChoice.candidates(layout, data: data)
            for candidate in RAWPreviewChoice.ordered(candidates, covering: size, purpose: .picture) {
                let denominator = ShrinkFactor.jpegDenominator(stored: candidate.size, target: size)
                if let image = try? JPEGDecoder.decodeFitted(Array(data[candidate.preview.range]), scaleDenominator: denominator,
                                                             size: size, maxPixels: maxPixels, photoName: photoName) {
                    return image
                }
            }
        }
        let decoded = try decode(data, stored: stored, storedTarget: size, maxPixels: maxPixels,
                                 embeddedThumbnail: false, photoName: photoName)
        return try ImageRenderer.named(photoName) { () throws(PickerError) in
            try Resampler.resample(decoded, to: size)
        }
    }

    /// Previews lie anywhere in the file, most within its first megabytes (CR3's PRVW at ~100 KB,
    /// DNG's and NEF's before the sensor data, CR2's in IFD0).
    static var embeddedThumbnailPrefix: Int { 4 << 20 }

    /// The smallest preview that covers a grid cell, from the file's first bytes.
    static func embeddedThumbnail(_ data: [UInt8], stored: PixelSize, covering storedTarget: PixelSize,
                                  maxPixels: Int) -> PixelImage? {
        var source = InMemoryBytes(data: data)
        guard let layout = try? layout(&source) else { return nil }
        return RAWPreviewChoice.decode(RAWPreviewChoice.candidates(layout, data: data), covering: storedTarget,
                                       purpose: .cell, data: data, maxPixels: maxPixels, photoName: "thumbnail")
    }

    /// The container walk for the file's family; a plain TIFF is refused as unsupported.
    static func layout<S: RAWByteSource>(_ source: inout S) throws(HeaderParseError) -> RAWLayout {
        guard let head = source.bytes(at: 0, count: min(16, source.size)), let kind = RAWKind.sniff(head[...]) else {
            throw HeaderParseError("not a camera RAW file")
        }
        do throws(RAWLayoutError) {
            return try RAWLayout.read(&source, kind: kind)
        } catch {
            switch error {
            case .damaged(let reason): throw HeaderParseError(reason)
            case .plainTIFF:
                throw HeaderParseError("is a TIFF image that names no camera (not a camera RAW); pickerd does not read TIFF",
                                       unsupported: true)
            }
        }
    }
}
