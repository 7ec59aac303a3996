import PickerSystem

/// How much of a camera RAW a decode must read. When one of its JPEG previews covers what the plan
/// shows, only the file's start up to the end of its last preview and of every structure the
/// container walk reads: DNG, NEF, CR2, CR3 and RAF keep these before the sensor data, which is
/// most of the file. A 50 MB RAW shown in a pane then costs the decoder its preview's few MB, not
/// 50 MB (issue 27: ≤ 64 MiB for a 50 MB RAW). Where no preview covers the plan (a develop, a
/// full-size window), or a structure lies past the sensor data, the whole file is read.
///
/// The prefix holds every byte the walk read, so the walk over it finds the same previews; the
/// sensor data's ranges then lie outside it and the codec never develops from it (a decode of the
/// prefix that fails is retried on the whole file by the caller).
enum RAWPrefix {
    /// The length to read of the RAW open as `fd` (`fileBytes` long) for `plan`; nil: the whole file
    /// (not a RAW, no covering preview, or nothing to save).
    static func length(fd: Int32, fileBytes: Int, plan: DecodePlan) -> Int? {
        // Every decode job asks: 16 bytes tell a RAW before a 64 KiB header window is read.
        guard let head = try? FileSystem.read(fd, at: 0, count: min(16, fileBytes)), RAWKind.sniff(head[...]) != nil else { return nil }
        var source = ReachRecorder(inner: HeaderBytes(fd: fd, size: fileBytes))
        guard let layout = try? RAWCodec.layout(&source) else { return nil }
        let display = layout.orientation.swapsAxes
            ? PixelSize(width: layout.size.height, height: layout.size.width) : layout.size
        guard let need = shown(plan, display: display) else { return nil }
        var covers = false
        for preview in layout.previews {
            let head = min(preview.range.count, 96 << 10)
            guard let bytes = source.bytes(at: preview.range.lowerBound, count: head),
                  let size = RAWPreviewChoice.jpegSize(bytes, 0..<head),
                  RAWPreviewChoice.matchesAspect(size, layout.size) else { continue }
            covers = covers || covering(size, need)
        }
        let end = layout.previews.reduce(source.reach) { max($0, $1.range.upperBound) }
        return covers && end < fileBytes / 2 ? end : nil
    }

    /// The upright size `plan` shows of a picture of upright size `display`; nil: all of it.
    private static func shown(_ plan: DecodePlan, display: PixelSize) -> PixelSize? {
        switch plan {
        case .fitted(let fit): return fit.fittedSize(for: display)
        case .upright(let minimum, _): return minimum
        case .cell(let size):
            return FitMath.cover(width: display.width, height: display.height, box: PixelSize(width: size, height: size)).scaled
        case .window: return nil
        }
    }

    /// Whether a preview of `size` (stored axes) covers `need` (upright axes) whatever the
    /// orientation: a preview has the picture's aspect, so long side to long side.
    private static func covering(_ size: PixelSize, _ need: PixelSize) -> Bool {
        max(size.width, size.height) >= max(need.width, need.height)
            && min(size.width, size.height) >= min(need.width, need.height)
    }
}

/// A byte source that remembers how far into the file it was read.
private struct ReachRecorder<Inner: RAWByteSource>: RAWByteSource {
    var inner: Inner
    /// The end of the furthest read that was served.
    private(set) var reach = 0
    var size: Int { inner.size }

    init(inner: Inner) {
        self.inner = inner
    }

    mutating func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard let bytes = inner.bytes(at: offset, count: count) else { return nil }
        reach = max(reach, offset + count)
        return bytes
    }
}
