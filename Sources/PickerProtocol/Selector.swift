/// Picks an album or a photo by name or by 1-based index.
/// Wire: `kind[1]` then 1 = `name:string`, 2 = `index:u32`.
public enum Selector: Sendable, Equatable {
    case name(String)
    case index(Int)

    func encode(into w: inout ByteWriter) {
        switch self {
        case .name(let s):
            w.u8(1)
            w.string(s)
        case .index(let i):
            w.u8(2)
            w.count(i)
        }
    }

    static func decode(from r: inout ByteReader) throws(PickerError) -> Selector {
        guard let s = try decodeOptional(from: &r) else { throw PickerError(.malformedFrame, "unknown selector kind 0") }
        return s
    }

    /// A selector where kind 0 means "none given" (the current one).
    static func decodeOptional(from r: inout ByteReader) throws(PickerError) -> Selector? {
        switch try r.u8() {
        case 0: return nil
        case 1: return .name(try r.string())
        case 2: return .index(Int(try r.u32()))
        case let k: throw PickerError(.malformedFrame, "unknown selector kind \(k)")
        }
    }
}

/// Direction for `stepPhoto`. Wire: u8.
public enum StepDirection: UInt8, Sendable, Equatable {
    case next = 0
    case previous = 1
}

/// Photo order for `photos`. Wire: u8. Open, so a newer server's order in a reply travels through;
/// a request with an order the server does not know is `malformed_frame` (`isKnown`).
public struct PhotoSort: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let name = PhotoSort(rawValue: 0)
    public static let date = PhotoSort(rawValue: 1)
    /// Whether this version knows the order.
    public var isKnown: Bool { self == .name || self == .date }
}
