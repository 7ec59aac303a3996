/// One protocol frame: `length[4] type[1] id[4] payload[length-5]`, big-endian.
/// `length` counts everything after itself.
public struct Frame: Sendable, Equatable {
    public var type: UInt8
    public var requestID: UInt32
    public var payload: [UInt8]

    public init(type: UInt8, requestID: UInt32, payload: [UInt8]) {
        self.type = type
        self.requestID = requestID
        self.payload = payload
    }

    /// True for server-initiated event frames (high bit of the type byte set):
    /// they can never be taken for a reply.
    public var isEvent: Bool { type & 0x80 != 0 }

    /// The frame's bytes on the wire, length prefix included.
    public func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: payload.count + 9)
        w.u32(UInt32(clamping: payload.count + ProtocolLimits.headerSize))
        w.u8(type)
        w.u32(requestID)
        var out = w.bytes
        out.append(contentsOf: payload)
        return out
    }
}
