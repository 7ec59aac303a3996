import PickerProtocol

/// The decoder worker's protocol on its socketpair (SOCK_SEQPACKET: one job or result a message).
///
/// Job (daemon → worker, the photo's descriptor attached): version u8 (1), kind u8, photo name
/// string, maxPixels u64, fileBytes u64, then for `fitted` box width u32, height u32 (0: none),
/// upscale bool; for `upright` minimum width u32, height u32 (0 0: full size), embedded-thumbnail bool;
/// for `embeddedThumbnail` (3) format u8, stored width u32, height u32, orientation u8, cover width u32,
/// height u32 (the worker reads the first fileBytes bytes); for `cell` (4) the side u32; for `window` (5)
/// the view's width u32, height u32 and the zoom's centre x u32, y u32 (millionths).
/// Result (worker → daemon): status u8; 0: width u32, height u32, channels u8 and a sealed memfd of
/// width × height × channels bytes attached; 1: error code u16 and message string; 2: no thumbnail serves.
/// Integers are big-endian (`ByteWriter`). Unknown kinds are answered with an `.internal` error.
enum DecodeMessages {
    static let version: UInt8 = 1
    /// The longest message either side sends (a photo name is at most a few hundred bytes).
    static let maxMessageBytes = 8192

    /// What the worker is asked to do.
    enum Kind: Sendable, Equatable {
        case fitted(FitTarget)
        case upright(minimumDisplaySize: PixelSize?, embeddedThumbnail: Bool)
        case cell(size: Int)
        case window(view: PixelSize, zoom: PreviewZoom)
        /// The file's own thumbnail (`EmbeddedThumbnail.upright`) from its first `fileBytes` bytes.
        case embeddedThumbnail(header: ImageHeader, covering: PixelSize)
        /// Test-only misbehaviour (`DecoderMisbehaviour`); a release worker answers it with an error.
        case misbehave(DecoderMisbehaviour)
        /// A kind this build does not know: kept, answered with an error.
        case unknown(UInt8)

        var raw: UInt8 {
            switch self {
            case .fitted: return 1
            case .upright: return 2
            case .embeddedThumbnail: return 3
            case .cell: return 4
            case .window: return 5
            case .misbehave(let m): return m.rawValue
            case .unknown(let k): return k
            }
        }
    }

    struct Job: Sendable, Equatable {
        var kind: Kind
        var photoName: String
        var maxPixels: Int
        var fileBytes: Int

        /// Whether an honest worker answers with pixels or an error: all but an embedded-thumbnail
        /// job, which may find none.
        var wantsPixels: Bool {
            if case .embeddedThumbnail = kind { return false }
            return true
        }
    }

    enum Result: Sendable, Equatable {
        case pixels(width: Int, height: Int, channels: Int)
        case failure(PickerError)
        /// An embedded-thumbnail job found none that serves.
        case none
    }

    static func encode(_ job: Job) -> [UInt8] {
        var w = ByteWriter()
        w.u8(version)
        w.u8(job.kind.raw)
        w.string(job.photoName)
        w.u64(UInt64(max(0, job.maxPixels)))
        w.u64(UInt64(max(0, job.fileBytes)))
        switch job.kind {
        case .fitted(let fit):
            w.u32(UInt32(clamping: fit.maxWidth))
            w.u32(UInt32(clamping: fit.maxHeight ?? 0))
            w.bool(fit.allowUpscale)
        case .upright(let size, let embedded):
            w.u32(UInt32(clamping: size?.width ?? 0))
            w.u32(UInt32(clamping: size?.height ?? 0))
            w.bool(embedded)
        case .cell(let size):
            w.u32(UInt32(clamping: size))
        case .window(let view, let zoom):
            w.u32(UInt32(clamping: view.width))
            w.u32(UInt32(clamping: view.height))
            w.u32(zoom.centreX)
            w.u32(zoom.centreY)
        case .embeddedThumbnail(let header, let cover):
            w.u8(header.format.rawValue)
            w.u32(UInt32(clamping: header.storedWidth))
            w.u32(UInt32(clamping: header.storedHeight))
            w.u8(UInt8(clamping: header.orientation.rawValue))
            w.u32(UInt32(clamping: cover.width))
            w.u32(UInt32(clamping: cover.height))
        case .misbehave, .unknown:
            break
        }
        return w.bytes
    }

    /// - Throws: `.malformedFrame` for a message that does not parse.
    static func decodeJob(_ bytes: [UInt8]) throws(PickerError) -> Job {
        var r = ByteReader(bytes)
        let v = try r.u8()
        guard v == version else { throw PickerError(.unsupportedVersion, "decoder job version \(v)") }
        let rawKind = try r.u8()
        let name = try r.string()
        let maxPixels = Int(clamping: try r.u64())
        let fileBytes = Int(clamping: try r.u64())
        let kind: Kind
        switch rawKind {
        case 1:
            let width = Int(try r.u32()), height = Int(try r.u32())
            kind = .fitted(FitTarget(maxWidth: width, maxHeight: height == 0 ? nil : height, allowUpscale: try r.bool()))
        case 2:
            let width = Int(try r.u32()), height = Int(try r.u32())
            let size = width == 0 && height == 0 ? nil : PixelSize(width: width, height: height)
            kind = .upright(minimumDisplaySize: size, embeddedThumbnail: try r.bool())
        case 4:
            kind = .cell(size: Int(try r.u32()))
        case 5:
            let view = PixelSize(width: Int(try r.u32()), height: Int(try r.u32()))
            kind = .window(view: view, zoom: PreviewZoom(centreX: try r.u32(), centreY: try r.u32()))
        case 3:
            let format = PhotoFormat(rawValue: try r.u8())
            let width = Int(try r.u32()), height = Int(try r.u32())
            let header = ImageHeader(format: format, storedWidth: width, storedHeight: height,
                                     orientation: Orientation(exifValue: Int(try r.u8())))
            kind = .embeddedThumbnail(header: header, covering: PixelSize(width: Int(try r.u32()), height: Int(try r.u32())))
        default:
            kind = DecoderMisbehaviour(rawValue: rawKind).map(Kind.misbehave) ?? .unknown(rawKind)
        }
        try r.expectEnd()
        return Job(kind: kind, photoName: name, maxPixels: maxPixels, fileBytes: fileBytes)
    }

    static func encode(_ result: Result) -> [UInt8] {
        var w = ByteWriter()
        switch result {
        case .pixels(let width, let height, let channels):
            w.u8(0)
            w.u32(UInt32(clamping: width))
            w.u32(UInt32(clamping: height))
            w.u8(UInt8(clamping: channels))
        case .failure(let error):
            w.u8(1)
            w.u16(error.code.rawValue)
            w.string(String(error.message.prefix(1024)))
        case .none:
            w.u8(2)
        }
        return w.bytes
    }

    /// - Throws: `.malformedFrame` for a message that does not parse.
    static func decodeResult(_ bytes: [UInt8]) throws(PickerError) -> Result {
        var r = ByteReader(bytes)
        let status = try r.u8()
        let result: Result
        switch status {
        case 0:
            result = .pixels(width: Int(try r.u32()), height: Int(try r.u32()), channels: Int(try r.u8()))
        case 1:
            let code = ErrorCode(rawValue: try r.u16())
            result = .failure(PickerError(code, try r.string()))
        case 2:
            result = .none
        default:
            throw PickerError(.malformedFrame, "decoder result status \(status)")
        }
        try r.expectEnd()
        return result
    }
}
