import CPickerCodecs
import PickerProtocol

/// PNG encoding with `tEXt` chunks (libpng, in CPickerCodecs), written before the image data.
enum PNGTextEncoder {
    /// Encodes an RGB or RGBA image as an 8-bit, non-interlaced PNG carrying `texts`.
    ///
    /// - Parameters:
    ///   - image: the pixels.
    ///   - texts: key/value pairs; keys follow the PNG keyword rules (1-79 printable Latin-1
    ///     characters), values are written as Latin-1 (characters outside it become `?`).
    ///   - compressionLevel: zlib level 0-9.
    /// - Throws: `.internal` when libpng refuses (bad keyword, out of memory).
    static func encode(_ image: PixelImage, texts: [(key: String, value: String)],
                       compressionLevel: Int = 2) throws(PickerError) -> [UInt8] {
        // Every key and value as NUL-terminated Latin-1 in one buffer, with their offsets.
        var storage: [CChar] = []
        var offsets: [(key: Int, value: Int)] = []
        for (key, value) in texts {
            let keyOffset = storage.count
            storage += latin1(key)
            storage.append(0)
            let valueOffset = storage.count
            storage += latin1(value)
            storage.append(0)
            offsets.append((keyOffset, valueOffset))
        }
        var message = CodecResult.messageBuffer()
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        let status = storage.withUnsafeBufferPointer { strings -> Int32 in
            guard let base = strings.baseAddress else {
                return pk_png_encode_text(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                                          Int32(image.channels), Int32(compressionLevel), nil, 0,
                                          &output, &length, &message)
            }
            let entries = offsets.map { pk_png_text_entry(key: base + $0.key, value: base + $0.value) }
            return pk_png_encode_text(image.pixels, image.pixels.count, Int32(image.width), Int32(image.height),
                                      Int32(image.channels), Int32(compressionLevel), entries,
                                      Int32(entries.count), &output, &length, &message)
        }
        guard status == 0, let bytes = CodecResult.adopt(output, count: length) else {
            throw PickerError(.internal, "PNG encoding with text failed (status \(status)): \(CodecResult.text(message))")
        }
        return bytes
    }

    private static func latin1(_ text: String) -> [CChar] {
        text.unicodeScalars.map { scalar in
            let value = scalar.value
            let byte: UInt8 = (value >= 1 && value <= 0xFF) ? UInt8(value) : UInt8(ascii: "?")
            return CChar(bitPattern: byte)
        }
    }
}
