import PickerProtocol

/// A decoded picture in memory: 8-bit interleaved RGB or RGBA, rows tightly packed.
///
/// RGBA uses straight (not premultiplied) alpha.
///
/// The fields cannot be set from outside: every picture is made by the one validating
/// initialiser (or from it), so `pixels.count == width * height * channels` always holds and
/// the C kernels, which also get the buffer's length, can rely on it.
public struct PixelImage: Sendable, Equatable {
    /// Width in pixels (> 0).
    public private(set) var width: Int
    /// Height in pixels (> 0).
    public private(set) var height: Int
    /// 3 (RGB) or 4 (RGBA).
    public private(set) var channels: Int
    /// `width * height * channels` bytes, row after row.
    public private(set) var pixels: [UInt8]

    /// Wraps pixel bytes; returns nil when the sizes do not match
    /// or `channels` is not 3 or 4. The one validating initialiser.
    public init?(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, channels == 3 || channels == 4, !overflow,
              pixels.count / channels == area, pixels.count % channels == 0 else { return nil }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The most pixels a canvas made from a size may have: the largest pane (8192 px a side)
    /// squared, 192 MiB as RGB. Sizes come from clients and files, so they are checked
    /// before anything is allocated.
    public static let maxCanvasPixels = 8192 * 8192

    /// The byte count of a `width`×`height` canvas of `channels` channels, checked without
    /// overflowing.
    /// - Throws: `.imageTooLarge` when the canvas would exceed `maxCanvasPixels`.
    public static func canvasByteCount(width: Int, height: Int, channels: Int) throws(PickerError) -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxCanvasPixels else {
            throw PickerError(.imageTooLarge,
                              "a \(width)x\(height) px canvas is more than the \(maxCanvasPixels) pixels (8192x8192) allowed")
        }
        return pixels * channels
    }

    /// An image filled with one colour (alpha only used when `channels` is 4); sides below 1 count as 1.
    /// - Throws: `.imageTooLarge` when the size exceeds `maxCanvasPixels`, instead of allocating it.
    public init(width: Int, height: Int, channels: Int = 3,
                filledWith colour: RGBColor, alpha: UInt8 = 255) throws(PickerError) {
        let w = max(1, width), h = max(1, height)
        let c = channels == 4 ? 4 : 3
        let total = try PixelImage.canvasByteCount(width: w, height: h, channels: c)
        let pixel = c == 4 ? [colour.red, colour.green, colour.blue, alpha] : [colour.red, colour.green, colour.blue]
        // One row by pixels, then whole rows copied: fast even in debug builds at 8192x8192.
        var row = [UInt8]()
        row.reserveCapacity(w * c)
        for _ in 0..<w { row.append(contentsOf: pixel) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(total)
        for _ in 0..<h { bytes.append(contentsOf: row) }
        self = try PixelImage.checked(width: w, height: h, channels: c, pixels: bytes)
    }

    /// One RGB pixel of `colour`: a fallback that cannot fail (its size is fixed).
    public init(pixelOf colour: RGBColor) {
        width = 1
        height = 1
        channels = 3
        pixels = [colour.red, colour.green, colour.blue]
    }

    /// True when the image has an alpha channel.
    public var hasAlpha: Bool { channels == 4 }

    /// The size as a value.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// A picture from bytes a C call produced, through the validating initialiser.
    /// - Throws: `.internal` when the bytes do not match the sizes (a bug in us, not bad input).
    static func checked(width: Int, height: Int, channels: Int, pixels: [UInt8]) throws(PickerError) -> PixelImage {
        guard let image = PixelImage(width: width, height: height, channels: channels, pixels: pixels) else {
            throw PickerError(.internal, "a \(width)x\(height)x\(channels) picture cannot hold \(pixels.count) bytes")
        }
        return image
    }

    /// Lets `body` change pixel values in place; sizes (and the buffer's length) stay as they are.
    public mutating func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        pixels.withUnsafeMutableBufferPointer { body($0) }
    }
}
