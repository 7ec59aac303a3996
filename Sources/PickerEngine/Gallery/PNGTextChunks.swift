/// Reads the text chunks of a PNG without decoding it: the key/value pairs the
/// freedesktop.org thumbnail cache keeps its metadata in.
///
/// Pure and bounded: walks chunk headers from the signature and stops at the first `IDAT`
/// (or `IEND`), after `maxChunks` chunks, or at the end of the bytes; never reads past the
/// input. Reads `tEXt` (Latin-1) and uncompressed `iTXt` (UTF-8); compressed text (`zTXt`,
/// compressed `iTXt`) is skipped. Chunks whose CRC does not match are skipped, as libpng
/// skips damaged ancillary chunks. The first entry for a key wins.
enum PNGTextChunks {
    /// The 8-byte PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Chunks looked at before giving up on finding the image data.
    static let maxChunks = 256
    /// Text longer than this is skipped (thumbnail keys are short).
    static let maxTextChunkLength = 64 * 1024

    /// The text entries before the image data.
    ///
    /// - Parameter bytes: the PNG file, or at least its start.
    /// - Returns: key → value, or nil when `bytes` does not start with the PNG signature.
    static func read(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.count >= signature.count, Array(bytes[0..<signature.count]) == signature else {
            return nil
        }
        var entries: [String: String] = [:]
        var position = signature.count
        var chunks = 0
        while chunks < maxChunks, bytes.count - position >= 12 {
            chunks += 1
            let length = Int(bigEndian32(bytes, at: position))
            let type = Array(bytes[(position + 4)..<(position + 8)])
            if type == Array("IDAT".utf8) || type == Array("IEND".utf8) { break }
            // Lengths above 2^31-1 are invalid PNG; a chunk running past the end ends the walk.
            guard length <= 0x7FFF_FFFF, length <= bytes.count - position - 12 else { break }
            let bodyStart = position + 8, bodyEnd = bodyStart + length
            defer { position = bodyEnd + 4 }
            let isText = type == Array("tEXt".utf8), isInternational = type == Array("iTXt".utf8)
            guard isText || isInternational, length <= maxTextChunkLength else { continue }
            guard CRC32.of(bytes, from: position + 4, to: bodyEnd) == bigEndian32(bytes, at: bodyEnd) else {
                continue
            }
            let body = bytes[bodyStart..<bodyEnd]
            let entry = isText ? parseText(body) : parseInternationalText(body)
            if let entry, entries[entry.key] == nil { entries[entry.key] = entry.value }
        }
        return entries
    }

    /// `tEXt`: keyword (1-79 bytes), NUL, Latin-1 text.
    private static func parseText(_ body: ArraySlice<UInt8>) -> (key: String, value: String)? {
        guard let nul = body.firstIndex(of: 0), let key = keyword(body[body.startIndex..<nul]) else {
            return nil
        }
        return (key, latin1(body[(nul + 1)...]))
    }

    /// `iTXt`: keyword, NUL, compression flag, method, language tag, NUL, translated keyword,
    /// NUL, UTF-8 text. Only uncompressed ones are read.
    private static func parseInternationalText(_ body: ArraySlice<UInt8>) -> (key: String, value: String)? {
        guard let nul = body.firstIndex(of: 0), let key = keyword(body[body.startIndex..<nul]) else {
            return nil
        }
        var rest = body[(nul + 1)...]
        guard rest.count >= 2, rest[rest.startIndex] == 0 else { return nil } // compressed: skip
        rest = rest.dropFirst(2)
        guard let languageEnd = rest.firstIndex(of: 0) else { return nil }
        rest = rest[(languageEnd + 1)...]
        guard let translatedEnd = rest.firstIndex(of: 0) else { return nil }
        return (key, String(decoding: rest[(translatedEnd + 1)...], as: UTF8.self))
    }

    private static func keyword(_ bytes: ArraySlice<UInt8>) -> String? {
        guard (1...79).contains(bytes.count) else { return nil }
        return latin1(bytes)
    }

    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text
    }

    private static func bigEndian32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
            | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }
}
