import Foundation
@testable import PickerEngine
import Testing

/// `ColourTransform` (Little CMS 2 through pk_colour.c) on small pictures, with the ICC
/// profiles of Debian's colord-data and libgs-common where installed.
@Suite struct ColourTransformTests {
    static let colord = URL(fileURLWithPath: "/usr/share/color/icc/colord")
    static func profile(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: colord.appendingPathComponent(name))).map { [UInt8]($0) }
    }
    static let hasColord = FileManager.default.fileExists(atPath: colord.appendingPathComponent("SwappedRedAndGreen.icc").path)

    static func picture(_ rgb: [UInt8], channels: Int = 3) throws -> PixelImage {
        try #require(PixelImage(width: 1, height: 1, channels: channels, pixels: rgb))
    }

    @Test func garbageBytesAreIgnoredAndLeaveThePixelsAsTheyWere() throws {
        var image = try Self.picture([200, 100, 50])
        let garbage = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
        #expect(ColourTransform.convertToSRGB(&image, profile: garbage) == .ignored)
        #expect(image.pixels == [200, 100, 50])
        // A valid ICC header that promises more bytes than follow.
        if let adobe = Self.profile("AdobeRGB1998.icc") {
            #expect(ColourTransform.convertToSRGB(&image, profile: Array(adobe.prefix(200))) == .ignored)
            #expect(image.pixels == [200, 100, 50])
        }
    }

    @Test func anEmptyProfileMeansSRGB() throws {
        var image = try Self.picture([1, 2, 3])
        #expect(ColourTransform.convertToSRGB(&image, profile: []) == .none)
        #expect(image.pixels == [1, 2, 3])
    }

    @Test(.enabled(if: hasColord, "needs colord-data's ICC profiles"))
    func theSwappedProfileTurnsStoredRedIntoGreenAndKeepsAlpha() throws {
        let swapped = try #require(Self.profile("SwappedRedAndGreen.icc"))
        var image = try Self.picture([255, 0, 0, 77], channels: 4)
        #expect(ColourTransform.convertToSRGB(&image, profile: swapped) == .converted)
        #expect(image.pixels[0] < 40 && image.pixels[1] > 200 && image.pixels[2] < 40, "\(image.pixels)")
        #expect(image.pixels[3] == 77)
    }

    @Test(.enabled(if: hasColord, "needs colord-data's ICC profiles"))
    func theSRGBProfileChangesNothingBeyondRounding() throws {
        let srgb = try #require(Self.profile("sRGB.icc"))
        let pixels: [UInt8] = [0, 0, 0, 255, 255, 255, 200, 100, 50, 12, 130, 240]
        var image = try #require(PixelImage(width: 4, height: 1, channels: 3, pixels: pixels))
        #expect(ColourTransform.convertToSRGB(&image, profile: srgb) == .converted)
        #expect(zip(image.pixels, pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(image.pixels)")
    }

    static let cmykProfile = URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: cmykProfile.path), "needs libgs-common's CMYK profile"))
    func aCMYKProfileIsIgnoredForRGBPixels() throws {
        let cmyk = try Data(contentsOf: Self.cmykProfile)
        var image = try Self.picture([10, 20, 30])
        #expect(ColourTransform.convertToSRGB(&image, profile: [UInt8](cmyk)) == .ignored)
        #expect(image.pixels == [10, 20, 30])
    }

    @Test(.enabled(if: hasColord, "needs colord-data's ICC profiles"))
    func theTransformCacheStaysBoundedAndReusesAProfile() throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: Self.colord.path)) ?? []).sorted()
        var converted = 0
        for name in names {
            guard let bytes = Self.profile(name) else { continue }
            var image = try Self.picture([100, 150, 200])
            if ColourTransform.convertToSRGB(&image, profile: bytes) == .converted { converted += 1 }
            #expect(ColourTransform.cachedTransforms <= ColourTransform.cacheCapacity)
        }
        #expect(converted > ColourTransform.cacheCapacity, "only \(converted) profiles converted: the bound was not reached")
        let adobe = try #require(Self.profile("AdobeRGB1998.icc"))
        var first = try Self.picture([100, 150, 200]), second = try Self.picture([100, 150, 200])
        _ = ColourTransform.convertToSRGB(&first, profile: adobe)
        let held = ColourTransform.cachedTransforms
        _ = ColourTransform.convertToSRGB(&second, profile: adobe)
        #expect(ColourTransform.cachedTransforms == held)
        #expect(first == second)
    }
}

/// A grid cell served from a JPEG's EXIF thumbnail is in the picture's colour space: the picture's
/// ICC profile is applied to it too.
@Suite struct EmbeddedThumbnailColourTests {
    static let canon = "camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg"

    /// `jpeg` with its own ICC_PROFILE segments (the Canon photo carries an sRGB profile) replaced by
    /// one APP2 segment holding `profile`, right after SOI.
    static func withProfile(_ jpeg: [UInt8], _ profile: [UInt8]) -> [UInt8] {
        let tag = Array("ICC_PROFILE".utf8) + [0]
        var kept: [UInt8] = []
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let end = min(jpeg.count, i + 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])))
            let segment = jpeg[i..<end]
            if !(jpeg[i + 1] == 0xE2 && segment.dropFirst(4).starts(with: tag)) { kept += segment }
            i = end
        }
        let body = tag + [1, 1] + profile
        let length = body.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + body + kept + jpeg[i...]
    }

    static func meanChannels(_ image: PixelImage) -> [Double] {
        (0..<3).map { c in
            stride(from: c, to: image.pixels.count, by: image.channels).reduce(0.0) { $0 + Double(image.pixels[$1]) }
                / Double(image.width * image.height)
        }
    }

    @Test(.enabled(if: ColourTransformTests.hasColord, "needs colord-data's ICC profiles"))
    func theExifThumbnailOfAProfiledJPEGIsConvertedLikeThePicture() throws {
        let (entry, bytes, format) = try #require(TestCorpus.required(Self.canon))
        let header = TestCorpus.header(for: entry, format: format)
        let swapped = try #require(ColourTransformTests.profile("SwappedRedAndGreen.icc"))
        let profiled = Self.withProfile(bytes, swapped)
        #expect(JPEGDecoder.embeddedProfile(profiled) == swapped)
        let plainCell = try ImageRenderer.decodeUpright(data: bytes, header: header, photoName: "plain.jpg",
                                                        minimumDisplaySize: (150, 100), maxPixels: 200_000_000,
                                                        embeddedThumbnail: true)
        let profiledCell = try ImageRenderer.decodeUpright(data: profiled, header: header, photoName: "profiled.jpg",
                                                           minimumDisplaySize: (150, 100), maxPixels: 200_000_000,
                                                           embeddedThumbnail: true)
        #expect(plainCell.size == profiledCell.size && plainCell.width < 300, "not both from the thumbnail: \(plainCell.size), \(profiledCell.size)")
        let plain = Self.meanChannels(plainCell), converted = Self.meanChannels(profiledCell)
        // Stored red shows as green and stored green as red.
        #expect(abs(converted[0] - plain[1]) < 3 && abs(converted[1] - plain[0]) < 3, "plain \(plain), converted \(converted)")
        #expect(abs(plain[0] - plain[1]) > 3, "the photo's red and green means are too close to tell a swap: \(plain)")
    }
}
