/// A D-Bus value as the portal reads and writes it: a tree that carries its own signature, so
/// options can be checked in plain Swift (and unit-tested without a bus).
public indirect enum DBusValue: Equatable, Sendable {
    case bool(Bool)
    case byte(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    /// `ay`, read whole.
    case bytes([UInt8])
    /// `a<element>`: the element signature is kept so an empty array still has a type.
    case array(element: String, [DBusValue])
    /// `(…)`.
    case structure([DBusValue])
    /// `{kv}` inside an array.
    case dictEntry(DBusValue, DBusValue)
    /// `v`.
    case variant(DBusValue)
    /// A basic type this reader does not model (`h`, `g`, `n`, `q`): kept by name, never a failure.
    case other(Character)

    /// This value's D-Bus signature.
    public var signature: String {
        switch self {
        case .bool: return "b"
        case .byte: return "y"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .bytes: return "ay"
        case .array(let element, _): return "a" + element
        case .structure(let items): return "(" + items.map(\.signature).joined() + ")"
        case .dictEntry(let k, let v): return "{" + k.signature + v.signature + "}"
        case .variant: return "v"
        case .other(let c): return String(c)
        }
    }

    /// The value inside a variant (one level), else the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner }
        return self
    }

    /// An `a{sv}` built from pairs, in their order.
    public static func vardict(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", pairs.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The entries of an `a{sv}` (`nil` when this is not one); a later duplicate key wins.
    public var vardictEntries: [String: DBusValue]? {
        guard case .array(let element, let items) = self, element == "{sv}" else { return nil }
        var out: [String: DBusValue] = [:]
        for case .dictEntry(.string(let key), .variant(let value)) in items { out[key] = value }
        return out
    }
}
