import Testing
import PickerProtocol
@testable import PickerEngine

@Suite struct OrientationTransformTests {
    /// A 3x2 image (channels 3 or 4) where every pixel encodes its stored (x, y).
    func coded(channels: Int) -> PixelImage? {
        let w = 3, h = 2
        var bytes: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                bytes += [UInt8(x * 40 + 1), UInt8(y * 40 + 1), 7]
                if channels == 4 { bytes.append(200) }
            }
        }
        return PixelImage(width: w, height: h, channels: channels, pixels: bytes)
    }

    /// Where stored (x, y) lands in the upright picture (EXIF definitions).
    func upright(_ o: Orientation, x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch o {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (h - 1 - y, x)
        case .rightMirrored: return (h - 1 - y, w - 1 - x)
        case .left: return (y, w - 1 - x)
        }
    }

    @Test(arguments: [3, 4])
    func everyStoredPixelLandsWhereTheOrientationSays(channels: Int) throws {
        let image = try #require(coded(channels: channels))
        for value in 1...8 {
            let o = try #require(Orientation(rawValue: value))
            let out = try OrientationTransform.apply(o, to: image)
            #expect(out.channels == channels)
            #expect(out.width == (o.swapsAxes ? 2 : 3) && out.height == (o.swapsAxes ? 3 : 2))
            for y in 0..<2 {
                for x in 0..<3 {
                    let (ux, uy) = upright(o, x: x, y: y, w: 3, h: 2)
                    let i = (uy * out.width + ux) * channels
                    #expect(out.pixels[i] == UInt8(x * 40 + 1) && out.pixels[i + 1] == UInt8(y * 40 + 1),
                            "orientation \(value): stored (\(x),\(y)) should be at (\(ux),\(uy))")
                }
            }
        }
    }

    @Test func rightOrientationPutsTheTopRowOnTheRight() throws {
        // A 2x1 picture stored with orientation 6 (rotate 90 CW) displays 1x2:
        // stored left pixel on top.
        let image = try #require(PixelImage(width: 2, height: 1, channels: 3, pixels: [255, 0, 0, 0, 0, 255]))
        let out = try OrientationTransform.apply(.right, to: image)
        #expect(out.width == 1 && out.height == 2)
        #expect(Array(out.pixels[0..<3]) == [255, 0, 0])
        #expect(OrientationTransform.uprightSize(PixelSize(width: 2, height: 1), .right) == PixelSize(width: 1, height: 2))
    }
}
