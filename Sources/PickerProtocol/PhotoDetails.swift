/// One photo described from the index and its header (`photoInfo`): no pixels are decoded.
/// Unknown text is "", an unknown number nil; GPS says only whether the file holds a position,
/// never the position.
public struct PhotoDetails: Sendable, Equatable {
    /// An EXIF RATIONAL, as written (1/250 s, 28/10 for f/2.8).
    public struct Rational: Sendable, Equatable {
        public var numerator: UInt32
        public var denominator: UInt32
        public init(_ numerator: UInt32, _ denominator: UInt32) {
            self.numerator = numerator
            self.denominator = denominator
        }
        public var value: Double { Double(numerator) / Double(denominator) }
    }

    public var path: String
    public var name: String
    public var format: PhotoFormat
    /// Displayed size, after EXIF orientation.
    public var width: Int
    public var height: Int
    public var bytes: Int64
    /// Unix seconds (EXIF DateTimeOriginal read as UTC, else mtime), as in listings.
    public var date: Int64
    public var dateSource: PhotoInfo.DateSource
    public var cameraMake = ""
    public var cameraModel = ""
    public var lens = ""
    /// Shutter time in seconds.
    public var exposureTime: Rational?
    public var fNumber: Rational?
    /// In millimetres.
    public var focalLength: Rational?
    public var iso: Int?
    /// The embedded ICC profile's description (or "sRGB" from EXIF ColorSpace), "" when none is named.
    public var colourProfile = ""
    public var hasGPS = false
    /// Extension tag 1, `raw_companion`: the relative path of the camera RAW listed as one photo with
    /// this one (a RAW+JPEG pair), "" when it has none; nil when the reply carries no entry (not
    /// asked, or a server from before the field).
    public var rawCompanion: String?
    /// Extension tag 2, `animation`: the frames of an animated GIF, WebP or PNG (the first is the one
    /// shown) and one pass's length; nil when the reply carries no entry or the picture is still.
    public var animation: Animation?
    /// Whether the reply carries the `animation` entry (it was asked and the server knows it), even
    /// an empty one for a still picture.
    public var answersAnimation = false

    public struct Animation: Sendable, Equatable {
        public var frames: Int
        public var milliseconds: Int
        public init(frames: Int, milliseconds: Int) {
            self.frames = frames
            self.milliseconds = milliseconds
        }
    }

    /// Tags of the reply's extension area; a request's entry of the same tag (empty) asks for it.
    public enum Extension {
        /// `raw_companion`: the RAW's relative path as UTF-8, the entry's whole bytes (none: length 0).
        public static let rawCompanion: UInt8 = 1
        /// `animation`: `frames:u32 milliseconds:u32`; length 0 for a still picture.
        public static let animation: UInt8 = 2
    }

    public init(path: String, name: String, format: PhotoFormat, width: Int, height: Int, bytes: Int64,
                date: Int64, dateSource: PhotoInfo.DateSource) {
        self.path = path
        self.name = name
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.date = date
        self.dateSource = dateSource
    }

    func encode(into w: inout ByteWriter) {
        w.string(path)
        w.string(name)
        w.u8(format.rawValue)
        w.count(width)
        w.count(height)
        w.i64(bytes)
        w.i64(date)
        w.u8(dateSource.rawValue)
        w.string(cameraMake)
        w.string(cameraModel)
        w.string(lens)
        for r in [exposureTime, fNumber, focalLength] {
            w.u32(r?.numerator ?? 0)
            w.u32(r?.denominator ?? 0)
        }
        w.count(iso ?? 0)
        w.string(colourProfile)
        w.bool(hasGPS)
        var area = ExtensionArea()
        if let rawCompanion { area.set(Extension.rawCompanion, Array(rawCompanion.utf8)) }
        if let animation {
            var entry = ByteWriter()
            entry.count(animation.frames)
            entry.count(animation.milliseconds)
            area.set(Extension.animation, entry.bytes)
        } else if answersAnimation {
            area.set(Extension.animation, [])
        }
        area.encode(into: &w)
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> PhotoDetails {
        var d = PhotoDetails(path: try r.string(), name: try r.string(), format: PhotoFormat(rawValue: try r.u8()),
                             width: Int(try r.u32()), height: Int(try r.u32()), bytes: try r.i64(),
                             date: try r.i64(), dateSource: PhotoInfo.DateSource(rawValue: try r.u8()))
        d.cameraMake = try r.string()
        d.cameraModel = try r.string()
        d.lens = try r.string()
        d.exposureTime = try rational(&r)
        d.fNumber = try rational(&r)
        d.focalLength = try rational(&r)
        let iso = try r.u32()
        d.iso = iso == 0 ? nil : Int(iso)
        d.colourProfile = try r.string()
        d.hasGPS = try r.bool()
        // Fields added later come in the extension area; tags this version does not know are skipped.
        let area = try ExtensionArea.decode(from: &r)
        if let bytes = area.bytes(Extension.rawCompanion) {
            guard let path = String(validating: bytes, as: UTF8.self) else {
                throw PickerError(.malformedFrame, "raw_companion is not valid UTF-8")
            }
            d.rawCompanion = path
        }
        if let bytes = area.bytes(Extension.animation) {
            d.answersAnimation = true
            if !bytes.isEmpty {
                var e = ByteReader(bytes)
                d.animation = Animation(frames: Int(try e.u32()), milliseconds: Int(try e.u32()))
                try e.expectEnd()
            }
        }
        return d
    }

    /// A rational with a zero denominator is "unknown".
    private static func rational(_ r: inout ByteReader) throws(PickerError) -> Rational? {
        let n = try r.u32(), d = try r.u32()
        return d == 0 ? nil : Rational(n, d)
    }
}

/// `photoInfo` (0x32) and its reply (0x33): one photo's details, declared together.
extension RequestDeclaration {
    static let details: [RequestDeclaration] = [
        RequestDeclaration(.photoInfo, answer: .photoInfoReply, .interactive, encode: { request, w in
            guard case .photoInfo(let session, let photo, let extensions) = request else { return }
            w.string(session)
            // Kind 0: the session's current photo; else a selector in the selected album.
            if let photo { photo.encode(into: &w) } else { w.u8(0) }
            extensions.encode(into: &w)
        }, decode: { r throws(PickerError) in
            let session = try r.string()
            let photo = try Selector.decodeOptional(from: &r)
            return .photoInfo(session: session, photo: photo, extensions: try ExtensionArea.decode(from: &r))
        }),
    ]
}

extension ReplyDeclaration {
    static let details: [ReplyDeclaration] = [
        ReplyDeclaration(type: .photoInfoReply, encode: { reply, w in
            guard case .photoInfo(let d) = reply else { return }
            d.encode(into: &w)
        }, decode: { r throws(PickerError) in
            .photoInfo(try PhotoDetails.decode(from: &r))
        }),
    ]
}
