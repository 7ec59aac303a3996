#if canImport(Glibc)
import Glibc
#endif
import CSDBus

/// Reads the arguments of an sd-bus message into `DBusValue`s, whatever their types, so unknown
/// options are skipped rather than failing the call. Errors are sd-bus's negative errno values.
struct DBusMessageReader {
    let message: OpaquePointer

    /// Every remaining value at this level.
    func readAll() throws(DBusReadError) -> [DBusValue] {
        var out: [DBusValue] = []
        while let value = try next() { out.append(value) }
        return out
    }

    /// The next value, or nil at the end of the current container.
    func next() throws(DBusReadError) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = sd_bus_message_peek_type(message, &type, &contents)
        if r < 0 { throw DBusReadError(errno: r) }
        if r == 0 { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"): return try readArray(element: inner)
        case UInt8(ascii: "v"): return .variant(try readContainer("v", inner).first ?? .other("v"))
        case UInt8(ascii: "r"): return .structure(try readContainer("r", inner))
        case UInt8(ascii: "e"):
            let kv = try readContainer("e", inner)
            guard kv.count == 2 else { throw DBusReadError(errno: -Int32(EBADMSG)) }
            return .dictEntry(kv[0], kv[1])
        default: return try readBasic(type)
        }
    }

    private func readArray(element: String) throws(DBusReadError) -> DBusValue {
        if element == "y" {
            var pointer: UnsafeRawPointer?
            var size = 0
            let r = sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size)
            if r < 0 { throw DBusReadError(errno: r) }
            guard let pointer, size > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: size)))
        }
        return .array(element: element, try readContainer("a", element))
    }

    private func readContainer(_ type: Unicode.Scalar, _ contents: String) throws(DBusReadError) -> [DBusValue] {
        let t = CChar(UInt8(ascii: type))
        var r = sd_bus_message_enter_container(message, t, contents)
        if r < 0 { throw DBusReadError(errno: r) }
        let items = try readAll()
        r = sd_bus_message_exit_container(message)
        if r < 0 { throw DBusReadError(errno: r) }
        return items
    }

    private func readBasic(_ type: CChar) throws(DBusReadError) -> DBusValue {
        var storage: (UInt64, UInt64) = (0, 0)  // room for any basic value, a pointer included
        let r = withUnsafeMutableBytes(of: &storage) { sd_bus_message_read_basic(message, type, $0.baseAddress) }
        if r < 0 { throw DBusReadError(errno: r) }
        return withUnsafeBytes(of: &storage) { raw in
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "b"): return .bool(raw.load(as: Int32.self) != 0)
            case UInt8(ascii: "y"): return .byte(raw.load(as: UInt8.self))
            case UInt8(ascii: "i"): return .int32(raw.load(as: Int32.self))
            case UInt8(ascii: "u"): return .uint32(raw.load(as: UInt32.self))
            case UInt8(ascii: "x"): return .int64(raw.load(as: Int64.self))
            case UInt8(ascii: "t"): return .uint64(raw.load(as: UInt64.self))
            case UInt8(ascii: "d"): return .double(raw.load(as: Double.self))
            case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
                let text = raw.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
                return type == CChar(UInt8(ascii: "o")) ? .objectPath(text) : .string(text)
            default: return .other(Character(Unicode.Scalar(UInt8(bitPattern: type))))
            }
        }
    }
}

/// A message that could not be read (sd-bus's negative errno).
struct DBusReadError: Error {
    let errno: Int32
}
