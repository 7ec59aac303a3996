/// One reply message, declared once: its number and its codec, encoder beside decoder.
/// The declarations live in `Replies+*.swift`, one group a file; which request each answers is
/// stated by the request's declaration (`RequestDeclaration.answer`).
public struct ReplyDeclaration: Sendable {
    public let type: MessageType
    let encode: @Sendable (Reply, inout ByteWriter) -> Void
    let decode: @Sendable (inout ByteReader) throws(PickerError) -> Reply

    /// Every reply of this version.
    public static let all: [ReplyDeclaration] = connection + sessions + browsing + images + details

    static let byType = MessageType.table(all, \.type)
}

extension Reply {
    public var declaration: ReplyDeclaration {
        // Every case's type is declared (the declaration tests check the table covers them all).
        ReplyDeclaration.byType[Int(messageType.rawValue)] ?? ReplyDeclaration.all[0]
    }

    public func frame(id: UInt32) -> Frame {
        var w = ByteWriter(capacity: estimatedPayloadSize)
        declaration.encode(self, &w)
        return Frame(type: messageType.rawValue, requestID: id, payload: w.bytes)
    }

    /// The frame's bytes on the wire, in one buffer (`frame(id:).encoded()` copies the payload a
    /// second time: for a picture that is a second multi-MiB allocation and copy).
    public func encodedFrame(id: UInt32) -> [UInt8] { encodedFrameBytes(id: id).joined }

    /// The frame's bytes on the wire with its pictures spliced in as their own buffers, not
    /// copied (`FrameBytes`): what the daemon sends.
    public func encodedFrameBytes(id: UInt32) -> FrameBytes {
        var w = ByteWriter(capacity: estimatedSizeBesidePictures + 9, splicingBlobsOf: Self.splicedPictureSize)
        w.u32(0)  // the length, set below
        w.u8(messageType.rawValue)
        w.u32(id)
        declaration.encode(self, &w)
        w.setU32(UInt32(clamping: w.count - 4), at: 0)
        return w.frameBytes
    }

    /// Pictures from this size up travel as their own buffer; smaller ones are copied (a
    /// separate buffer costs an iovec and a part to track).
    static let splicedPictureSize = 16 << 10

    /// Decodes a reply frame (request and event frames are not replies and are refused here).
    public init(frame: consuming Frame) throws(PickerError) {
        guard let declaration = ReplyDeclaration.byType[Int(frame.type)] else {
            guard MessageType(rawValue: frame.type) != nil else {
                throw PickerError(.unknownMessageType, "unknown message type 0x\(hex(frame.type))")
            }
            let kind = frame.type >= 0x80 ? "an event" : "a request"
            throw PickerError(.unknownMessageType, "message type 0x\(hex(frame.type)) is \(kind), not a reply")
        }
        var r = ByteReader(taking: frame)
        self = try declaration.decode(&r)
        try r.expectEnd()
    }
}
