import CPickerCodecs
import PickerProtocol

/// Turns the status and message a CPickerCodecs call returns into a PickerError
/// that names the photo.
enum CodecResult {
    /// Size of the message buffer every C call writes into.
    static let messageCapacity = Int(PK_MSG_LEN)

    /// A zeroed message buffer for one C call.
    static func messageBuffer() -> [CChar] {
        [CChar](repeating: 0, count: messageCapacity)
    }

    /// The NUL-terminated text in a message buffer.
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The PickerError for a failed C call.
    ///
    /// - Parameters:
    ///   - status: a `pk_status` value other than `PK_OK`.
    ///   - message: the C message text.
    ///   - formatName: the format being decoded or encoded (for the wording).
    ///   - photoName: the photo the message names.
    static func error(status: Int32, message: String, formatName: String,
                      photoName: String) -> PickerError {
        let detail = message.isEmpty ? "unknown error" : message
        switch UInt32(bitPattern: status) {
        case PK_CORRUPT.rawValue:
            // libjpeg's own text starts "Corrupt JPEG data: …": the reason is said once.
            let rest = dropping("corrupt \(formatName) data: ", from: detail)
            return PickerError(.corruptImage, "\(photoName): corrupt \(formatName) data: \(rest)")
        case PK_UNSUPPORTED.rawValue:
            return PickerError(.unsupportedImage,
                               "\(photoName): unsupported \(formatName) variant: \(detail)")
        case PK_TOO_LARGE.rawValue:
            let rest = dropping("image too large: ", from: detail)
            return PickerError(.imageTooLarge, "\(photoName): image too large: \(rest)")
        case PK_CANCELLED.rawValue:
            return PickerError(.cancelled, "\(photoName): cancelled")
        case PK_NO_MEMORY.rawValue:
            return noMemory(photoName: photoName)
        default:
            return PickerError(.internal, "\(photoName): internal image error: \(detail)")
        }
    }

    /// The words of an allocation that failed while decoding (in a worker: at its memory cap).
    static let noMemoryWords = "not enough memory to process the image"

    /// The error of an allocation that failed while decoding `photoName`.
    static func noMemory(photoName: String) -> PickerError {
        PickerError(.imageTooLarge, "\(photoName): \(noMemoryWords)")
    }

    /// `error` is `noMemory`'s, for a caller that can say which limit was met.
    static func isNoMemory(_ error: PickerError) -> Bool {
        error.code == .imageTooLarge && error.message.hasSuffix(noMemoryWords)
    }

    /// `text` without `prefix` in front (compared ignoring case), so a C message that already
    /// says what the Swift wording says is not said twice.
    static func dropping(_ prefix: String, from text: String) -> String {
        text.lowercased().hasPrefix(prefix.lowercased()) ? String(text.dropFirst(prefix.count)) : text
    }

    /// Copies a malloc'd C buffer into an array and frees it.
    static func adopt(_ pointer: UnsafeMutablePointer<UInt8>?, count: Int) -> [UInt8]? {
        guard let pointer else { return nil }
        defer { pk_free(pointer) }
        guard count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    /// Takes ownership of a decoded `pk_image`: copies it into a PixelImage and frees it.
    /// With `photoName`, a refused embedded ICC profile is logged (`ColourTransform.note`).
    static func adopt(_ image: pk_image, photoName: String? = nil) -> PixelImage? {
        if let photoName { ColourTransform.note(image.colour, photoName: photoName) }
        let w = Int(image.width), h = Int(image.height), c = Int(image.channels)
        guard w > 0, h > 0, c == 3 || c == 4 else {
            pk_free(image.pixels)
            return nil
        }
        guard let bytes = adopt(image.pixels, count: w * h * c) else { return nil }
        return PixelImage(width: w, height: h, channels: c, pixels: bytes)
    }

    /// The pixel cap as the C side wants it.
    static func cap(_ maxPixels: Int) -> UInt64 { UInt64(max(0, maxPixels)) }
}
