#if canImport(Glibc)
import Glibc
#endif
import CSDBus

/// Appends `DBusValue`s to an sd-bus message (a reply's `ua{sv}`).
struct DBusMessageWriter {
    let message: OpaquePointer

    /// Appends `value`; returns sd-bus's status (negative errno on failure).
    @discardableResult
    func append(_ value: DBusValue) -> Int32 {
        switch value {
        case .bool(let b): return basic("b", Int32(b ? 1 : 0))
        case .byte(let v): return basic("y", v)
        case .int32(let v): return basic("i", v)
        case .uint32(let v): return basic("u", v)
        case .int64(let v): return basic("x", v)
        case .uint64(let v): return basic("t", v)
        case .double(let v): return basic("d", v)
        case .string(let s): return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), s)
        case .objectPath(let s): return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "o")), s)
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { sd_bus_message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) }
        case .array(let element, let items): return container("a", element, items)
        case .structure(let items): return container("r", String(value.signature.dropFirst().dropLast()), items)
        case .dictEntry(let k, let v): return container("e", k.signature + v.signature, [k, v])
        case .variant(let inner): return container("v", inner.signature, [inner])
        case .other: return -Int32(EINVAL)
        }
    }

    private func basic<T>(_ type: Unicode.Scalar, _ value: T) -> Int32 {
        var v = value
        return withUnsafeBytes(of: &v) { sd_bus_message_append_basic(message, CChar(UInt8(ascii: type)), $0.baseAddress) }
    }

    private func container(_ type: Unicode.Scalar, _ contents: String, _ items: [DBusValue]) -> Int32 {
        var r = sd_bus_message_open_container(message, CChar(UInt8(ascii: type)), contents)
        if r < 0 { return r }
        for item in items {
            r = append(item)
            if r < 0 { return r }
        }
        return sd_bus_message_close_container(message)
    }
}
