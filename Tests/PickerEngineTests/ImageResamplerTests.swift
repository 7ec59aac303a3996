import Testing
import PickerProtocol
@testable import PickerEngine

@Suite struct ImageResamplerTests {
    func gradient(_ w: Int, _ h: Int) -> PixelImage {
        var bytes = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                bytes[i] = UInt8(x * 255 / max(1, w - 1))
                bytes[i + 1] = UInt8(y * 255 / max(1, h - 1))
                bytes[i + 2] = UInt8((x + y) % 2 == 0 ? 200 : 40)
            }
        }
        return syntheticPicture(w, h, 3, bytes)
    }

    func mean(_ image: PixelImage, channel: Int) -> Double {
        var total = 0
        var i = channel
        while i < image.pixels.count {
            total += Int(image.pixels[i])
            i += image.channels
        }
        return Double(total) / Double(image.width * image.height)
    }

    @Test func outputHasExactlyTheRequestedSizeOverASweep() throws {
        let sources = [(1, 1), (7, 3), (64, 48), (333, 101), (640, 480)]
        let targets = [(1, 1), (2, 5), (16, 16), (99, 37), (300, 200), (1000, 700)]
        for (sw, sh) in sources {
            let src = gradient(sw, sh)
            for (tw, th) in targets {
                let out = try Resampler.resample(src, to: PixelSize(width: tw, height: th))
                #expect(out.width == tw && out.height == th && out.channels == 3)
                #expect(out.pixels.count == tw * th * 3)
            }
        }
    }

    @Test(arguments: [3, 4])
    func uniformImageStaysUniformWithNoDarkEdges(channels: Int) throws {
        let colour = RGBColor(red: 200, green: 120, blue: 30)
        let src = try PixelImage(width: 403, height: 251, channels: channels, filledWith: colour)
        for (tw, th) in [(100, 62), (37, 23), (403, 251), (800, 500), (13, 200)] {
            let out = try Resampler.resample(src, to: PixelSize(width: tw, height: th))
            var worst = 0
            for i in stride(from: 0, to: out.pixels.count, by: channels) {
                worst = max(worst, abs(Int(out.pixels[i]) - 200), abs(Int(out.pixels[i + 1]) - 120),
                            abs(Int(out.pixels[i + 2]) - 30))
                if channels == 4 { worst = max(worst, abs(Int(out.pixels[i + 3]) - 255)) }
            }
            #expect(worst <= 1, "\(tw)x\(th): a pixel differs by \(worst)")
        }
    }

    @Test func meanColourIsPreservedWhenDownscaling() throws {
        let src = gradient(1200, 800)
        for (tw, th) in [(600, 400), (300, 200), (61, 40), (7, 5)] {
            let out = try Resampler.resample(src, to: PixelSize(width: tw, height: th))
            for c in 0..<3 {
                #expect(abs(mean(out, channel: c) - mean(src, channel: c)) < 2.5, "\(tw)x\(th) channel \(c)")
            }
        }
    }

    @Test func transparentBlackDoesNotDarkenOpaqueEdges() throws {
        // Left half opaque white, right half fully transparent *black*.
        let w = 64, h = 16
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<(w / 2) {
                let i = (y * w + x) * 4
                bytes[i] = 255; bytes[i + 1] = 255; bytes[i + 2] = 255; bytes[i + 3] = 255
            }
        }
        let src = try #require(PixelImage(width: w, height: h, channels: 4, pixels: bytes))
        for tw in [5, 13, 20, 31, 100] {
            let out = try Resampler.resample(src, to: PixelSize(width: tw, height: 4))
            for i in stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[i + 3] >= 8 {
                #expect(out.pixels[i] >= 250 && out.pixels[i + 1] >= 250 && out.pixels[i + 2] >= 250,
                        "width \(tw): a visible pixel is darkened to \(out.pixels[i])")
            }
        }
    }

    @Test func cropResamplesOnlyTheChosenRectangle() throws {
        // Left half red, right half blue; cropping the right half gives only blue.
        let w = 40, h = 10
        var bytes = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                if x < w / 2 { bytes[i] = 255 } else { bytes[i + 2] = 255 }
            }
        }
        let src = try #require(PixelImage(width: w, height: h, channels: 3, pixels: bytes))
        let out = try Resampler.resample(src, to: PixelSize(width: 8, height: 8),
                                         crop: PixelRect(x: 20, y: 0, width: 20, height: 10))
        #expect(out.width == 8 && out.height == 8)
        for i in stride(from: 0, to: out.pixels.count, by: 3) {
            #expect(out.pixels[i] <= 1 && out.pixels[i + 2] >= 254)
        }
    }

    @Test func bigReductionStillKeepsDetailContrast() throws {
        // A 1-pixel checkerboard averages to grey; a 32-pixel one must keep its squares.
        let w = 1024, h = 1024
        var bytes = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w where ((x / 32) + (y / 32)) % 2 == 0 {
                let i = (y * w + x) * 3
                bytes[i] = 255; bytes[i + 1] = 255; bytes[i + 2] = 255
            }
        }
        let src = try #require(PixelImage(width: w, height: h, channels: 3, pixels: bytes))
        let out = try Resampler.resample(src, to: PixelSize(width: 64, height: 64))
        // Centre of a square (2x2 output pixels per square): near pure white or black.
        let centre = (1 * 64 + 1) * 3
        #expect(out.pixels[centre] < 40 || out.pixels[centre] > 215)
    }
}
