import PickerProtocol

/// The one table of photo formats pickerd reads. Sniffing, header reading and decoding all
/// find their codec here; a format missing from the table is not read at all (never handed
/// to another format's decoder).
enum ImageCodecs {
    /// Every codec, in sniffing order (AVIF before HEIC: an AVIF file may also carry `mif1`;
    /// RAW before both: CR3 is an ISO media file too, told by its `crx ` major brand).
    static let all: [any ImageCodec.Type] = [
        JPEGDecoder.self, PNGDecoder.self, WebPDecoder.self, RAWCodec.self, AVIFCodec.self, HEICCodec.self,
        GIFCodec.self, JXLCodec.self,
    ]

    /// The codec of `format`, or nil for a format this build does not read.
    static func codec(for format: PhotoFormat) -> (any ImageCodec.Type)? {
        all.first { $0.format == format }
    }

    /// The formats listed in the capabilities reply, in wire order.
    static var inputFormats: [PhotoFormat] { all.map { $0.format }.sorted { $0.rawValue < $1.rawValue } }
}
