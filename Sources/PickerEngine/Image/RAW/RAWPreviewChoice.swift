import CPickerCodecs

/// Which embedded JPEG preview of a RAW serves a target, and decoding it.
///
/// Only previews with the developed picture's aspect ratio (within 2 %) are candidates: a
/// letterboxed 4:3 thumbnail of a 3:2 sensor would be stretched, and the 8x8 stubs some
/// stripped files keep are not the photo. The largest candidate that covers the target shows a
/// picture (the best quality), the smallest that covers it fills a grid cell (the fastest).
enum RAWPreviewChoice {
    static let aspectTolerance = 0.02

    /// A preview with the size its JPEG header declares.
    struct Candidate: Equatable {
        let preview: RAWPreview
        let size: PixelSize
    }

    enum Purpose {
        /// A picture pane: the largest preview that covers the target.
        case picture
        /// A grid cell: the smallest preview that covers the target.
        case cell
    }

    /// The previews inside `data` whose JPEG header reads and whose aspect matches `picture`, smallest first.
    static func candidates(_ layout: RAWLayout, data: [UInt8]) -> [Candidate] {
        var seen: Set<Int> = []
        let found = layout.previews.compactMap { preview -> Candidate? in
            guard preview.range.upperBound <= data.count, seen.insert(preview.range.lowerBound).inserted,
                  let size = jpegSize(data, preview.range), matchesAspect(size, layout.size) else { return nil }
            return Candidate(preview: preview, size: size)
        }
        return found.sorted { $0.size.width * $0.size.height < $1.size.width * $1.size.height }
    }

    /// The largest preview with the picture's aspect, its size read from the first bytes of each
    /// (the SOF follows the EXIF segment, at most 64 KiB); nil when there is none.
    static func largest<S: RAWByteSource>(_ layout: RAWLayout, _ source: inout S) -> PixelSize? {
        var best: PixelSize?
        for preview in layout.previews {
            let count = min(preview.range.count, 96 << 10)
            guard let head = source.bytes(at: preview.range.lowerBound, count: count),
                  let size = jpegSize(head, 0..<count), matchesAspect(size, layout.size) else { continue }
            if size.width * size.height > (best.map { $0.width * $0.height } ?? 0) { best = size }
        }
        return best
    }

    /// The first candidate (in `purpose`'s order) that covers `target` and decodes, decoded
    /// shrunk on load but still covering it; nil when none does.
    static func decode(_ candidates: [Candidate], covering target: PixelSize, purpose: Purpose, data: [UInt8],
                       maxPixels: Int, photoName: String) -> PixelImage? {
        for candidate in ordered(candidates, covering: target, purpose: purpose) {
            if let image = decode(candidate, target: target, data: data, maxPixels: maxPixels, photoName: photoName) {
                return image
            }
        }
        return nil
    }

    /// The candidates that cover `target`, in the order `purpose` tries them.
    static func ordered(_ candidates: [Candidate], covering target: PixelSize, purpose: Purpose) -> [Candidate] {
        let covering = candidates.filter { $0.size.width >= target.width && $0.size.height >= target.height }
        return purpose == .cell ? covering : covering.reversed()
    }

    /// The largest candidate that decodes, when it is big enough to stand in for a picture that
    /// cannot be developed (its long side at least 1/8 of the picture's and 160 px).
    static func standIn(_ candidates: [Candidate], picture: PixelSize, target: PixelSize?, data: [UInt8],
                        maxPixels: Int, photoName: String) -> PixelImage? {
        let least = max(160, max(picture.width, picture.height) / 8)
        for candidate in candidates.reversed() where max(candidate.size.width, candidate.size.height) >= least {
            let goal = target.map { PixelSize(width: min($0.width, candidate.size.width), height: min($0.height, candidate.size.height)) }
            if let image = decode(candidate, target: goal ?? candidate.size, data: data, maxPixels: maxPixels,
                                  photoName: photoName) {
                return image
            }
        }
        return nil
    }

    private static func decode(_ candidate: Candidate, target: PixelSize, data: [UInt8], maxPixels: Int,
                               photoName: String) -> PixelImage? {
        let denominator = ShrinkFactor.jpegDenominator(stored: candidate.size, target: target)
        let bytes = Array(data[candidate.preview.range])
        return try? JPEGDecoder.decode(bytes, scaleDenominator: denominator, maxPixels: maxPixels, photoName: photoName)
    }

    static func matchesAspect(_ size: PixelSize, _ picture: PixelSize) -> Bool {
        guard size.width > 0, size.height > 0, picture.width > 0, picture.height > 0 else { return false }
        let ratio = (Double(size.width) / Double(size.height)) / (Double(picture.width) / Double(picture.height))
        return abs(ratio - 1) <= aspectTolerance
    }

    /// The size in the JPEG's SOF, or nil when its header does not read.
    static func jpegSize(_ data: [UInt8], _ range: Range<Int>) -> PixelSize? {
        var w: Int32 = 0, h: Int32 = 0
        var message = CodecResult.messageBuffer()
        let status = data.withUnsafeBufferPointer { all in
            pk_jpeg_read_size(all.baseAddress.map { $0 + range.lowerBound }, range.count, &w, &h, &message)
        }
        return status == 0 && w > 0 && h > 0 ? PixelSize(width: Int(w), height: Int(h)) : nil
    }
}
