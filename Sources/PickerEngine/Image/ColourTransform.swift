import CPickerCodecs
import PickerSystem

/// Colour management: pictures that carry an ICC profile are shown in sRGB.
///
/// The codecs' C decoders find the profile (JPEG APP2, PNG iCCP, WebP ICCP, HEIF `colr`)
/// and convert with Little CMS 2 (`pk_colour.c`) as one step of decoding: after the resample
/// where the decoder resamples (only the fitted pixels are converted), else on the shrunk-on-
/// load picture, before anything is resampled; CMYK JPEGs row by row while decoding. Output
/// never carries a profile. Intent (perceptual) and the transform cache: `pk_colour.h`.
/// This type reports what became of a picture's profile and converts pictures for tests
/// and the fuzz target.
public enum ColourTransform {
    /// What became of a picture's colours.
    public enum Outcome: Sendable, Equatable {
        /// No profile: the pixels are sRGB as they are.
        case none
        /// Converted from the embedded profile to sRGB.
        case converted
        /// A profile Little CMS refuses, or one for another colour space: taken as sRGB.
        case ignored
    }

    /// The outcome a C decoder recorded in `pk_image.colour`.
    static func outcome(_ raw: Int32) -> Outcome {
        switch UInt32(bitPattern: raw) {
        case PK_COLOUR_CONVERTED.rawValue: return .converted
        case PK_COLOUR_IGNORED.rawValue: return .ignored
        default: return .none
        }
    }

    /// Logs a refused profile at debug level: bad input, but the picture still shows, so not an error.
    static func note(_ raw: Int32, photoName: String) { note(outcome(raw), photoName: photoName) }

    static func note(_ outcome: Outcome, photoName: String) {
        if outcome == .ignored {
            Log.debug("\(photoName): embedded ICC profile ignored (not a usable profile for its pixels); shown as sRGB")
        }
    }

    /// Converts `image` in place from the colour space `profile` describes to sRGB.
    /// - Parameters:
    ///   - image: RGB or RGBA pixels (alpha is kept).
    ///   - profile: the ICC profile's bytes.
    /// - Returns: `.converted`, or `.ignored` (pixels unchanged) for a profile Little CMS
    ///   refuses or one that is not an RGB profile; `.none` for an empty profile.
    public static func convertToSRGB(_ image: inout PixelImage, profile: [UInt8]) -> Outcome {
        guard !profile.isEmpty else { return .none }
        let (w, h, c) = (image.width, image.height, image.channels)
        let raw = profile.withUnsafeBufferPointer { icc in
            image.withUnsafeMutablePixels { pixels in
                pk_colour_to_srgb(icc.baseAddress, icc.count, pixels.baseAddress, pixels.count,
                                  Int32(clamping: w), Int32(clamping: h), Int32(clamping: c))
            }
        }
        return outcome(raw)
    }

    /// Transforms held in the cache now (at most `PK_COLOUR_CACHE_MAX`).
    public static var cachedTransforms: Int { Int(pk_colour_cached_count()) }

    /// The most transforms the cache holds.
    public static var cacheCapacity: Int { Int(PK_COLOUR_CACHE_MAX) }
}
