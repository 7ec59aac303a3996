import CPickerCodecs
import Testing
import PickerProtocol
@testable import PickerEngine

@Suite struct ImageEncoderTests {
    func sample(_ w: Int, _ h: Int, channels: Int) -> PixelImage {
        var bytes = [UInt8](repeating: 0, count: w * h * channels)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * channels
                bytes[i] = UInt8(x * 255 / max(1, w - 1))
                bytes[i + 1] = UInt8(y * 255 / max(1, h - 1))
                bytes[i + 2] = 128
                if channels == 4 { bytes[i + 3] = UInt8(x < w / 2 ? 255 : 90) }
            }
        }
        return syntheticPicture(w, h, channels, bytes)
    }

    func decode(_ bytes: [UInt8], _ format: ImageFormat) throws -> PixelImage {
        switch format {
        case .png: return try PNGDecoder.decode(bytes, maxPixels: 1 << 30, photoName: "roundtrip.png")
        case .jpeg: return try JPEGDecoder.decode(bytes, maxPixels: 1 << 30, photoName: "roundtrip.jpg")
        case .webp: return try WebPDecoder.decode(bytes, maxPixels: 1 << 30, photoName: "roundtrip.webp")
        default: throw PickerError(.unsupportedImage, "\(format.displayName) is not decoded here")
        }
    }

    @Test(arguments: [3, 4])
    func pngRoundTripIsLossless(channels: Int) throws {
        let image = sample(123, 45, channels: channels)
        let bytes = try ImageEncoder.encode(image, as: .png, quality: 100)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let back = try decode(bytes, .png)
        #expect(back == image)
    }

    /// PNG goes straight into a buffer of `pk_png_encode_bound` bytes from `pngInPlaceFromBytes` up:
    /// pixels that do not compress at all (random noise) must still fit, at every size (the small ones
    /// through the copying path), and decode back exactly.
    @Test(arguments: [(1, 1, 3), (3, 2, 4), (257, 129, 3), (1024, 700, 4), (2000, 1000, 3)])
    func incompressiblePixelsFitTheBoundAndRoundTrip(width: Int, height: Int, channels: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<width * height * channels).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let image = syntheticPicture(width, height, channels, noise)
        let bytes = try ImageEncoder.encode(image, as: .png, quality: 100)
        #expect(bytes.count <= pk_png_encode_bound(Int32(width), Int32(height), Int32(channels)))
        #expect(try decode(bytes, .png) == image)
    }

    /// A capacity short of what the picture needs is an error the caller sees, never a write past it.
    @Test func aBufferShortOfThePictureIsRefused() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<64 * 64 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var room = [UInt8](repeating: 0xAB, count: 4096 + 16)
        var length = 0
        var message = [CChar](repeating: 0, count: Int(PK_MSG_LEN))
        let status = room.withUnsafeMutableBufferPointer { buffer in
            pk_png_encode_into(noise, noise.count, 64, 64, 3, 1, buffer.baseAddress, 4096, &length, &message)
        }
        #expect(status != 0 && length == 0)
        #expect(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .contains("larger than its bound"))
        #expect(room[4096...].allSatisfy { $0 == 0xAB }, "nothing written past the capacity")
        #expect(pk_png_encode_bound(0, 10, 3) == 0 && pk_png_encode_bound(10, 10, 2) == 0)
    }

    @Test(arguments: [ImageFormat.jpeg, .webp], [3, 4])
    func lossyRoundTripKeepsSizeAndLooksAlike(format: ImageFormat, channels: Int) throws {
        let image = sample(200, 120, channels: channels)
        let bytes = try ImageEncoder.encode(image, as: format, quality: 90)
        let back = try decode(bytes, format)
        #expect(back.width == 200 && back.height == 120)
        if format == .jpeg { #expect(back.channels == 3) }
        if channels == 3 {
            let diff = try #require(meanAbsoluteDifference(back, image))
            #expect(diff < 4, "mean abs diff \(diff)")
        }
    }

    @Test func jpegOfTransparentPixelsIsFlattenedOnWhite() throws {
        let clear = try PixelImage(width: 16, height: 16, channels: 4, filledWith: .black, alpha: 0)
        let back = try decode(try ImageEncoder.encode(clear, as: .jpeg, quality: 95), .jpeg)
        #expect(back.pixels.allSatisfy { $0 >= 250 })
    }

    @Test func oneByOneImagesEncodeInEveryFormat() throws {
        let dot = try PixelImage(width: 1, height: 1, channels: 3, filledWith: RGBColor(red: 10, green: 200, blue: 30))
        for format in ImageFormat.allCases.filter({ !$0.isTerminalText }) {
            let back = try decode(try ImageEncoder.encode(dot, as: format, quality: 80), format)
            #expect(back.width == 1 && back.height == 1)
        }
    }

    @Test func jpegQualityChangesTheSize() throws {
        let image = sample(256, 256, channels: 3)
        let low = try ImageEncoder.encode(image, as: .jpeg, quality: 10)
        let high = try ImageEncoder.encode(image, as: .jpeg, quality: 95)
        #expect(low.count < high.count)
    }
}
