/// `file://` URIs for local paths, in the form the freedesktop.org thumbnail cache hashes.
///
/// The standard asks for the absolute canonical URI per RFC 2396. Everyone else in the cache
/// (Nautilus, Thunar, GNOME's thumbnailers: GLib's `g_filename_to_uri`) escapes exactly what
/// RFC 2396 does not allow in a path: every byte of the UTF-8 path is kept as is when it is an
/// ASCII letter or digit, one of the marks `-_.!~*'()`, one of `:@&=+$,` or `/`, and written as
/// `%XX` (upper-case hex) otherwise — so space, `%`, `#`, `?`, `;` and non-ASCII are escaped.
/// Escaping more (strict RFC 3986, which also escapes `(`, `)`, `!`, ...) would give another
/// MD5 for names like `IMG (1).jpg` and we would miss the file managers' thumbnails.
enum FileURI {
    /// Bytes left unescaped in a path (RFC 2396 `pchar` plus `/`; GLib's `UNSAFE_PATH` set).
    private static let unescaped: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in "-_.!~*'():@&=+$,/".utf8 { table[Int(byte)] = true }
        return table
    }()

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `file://` followed by the escaped path; `path` should be absolute (it is not resolved
    /// or normalised here: callers pass the canonical path they index the photo by).
    static func make(absolutePath path: String) -> String {
        var bytes = Array("file://".utf8)
        bytes.reserveCapacity(bytes.count + path.utf8.count * 3 / 2)
        for byte in path.utf8 {
            if unescaped[Int(byte)] {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
