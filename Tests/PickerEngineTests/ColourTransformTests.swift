import Foundation
import PickerEngine
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
