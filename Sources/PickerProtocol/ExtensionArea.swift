/// The one rule for fields added to a message after its release (PROTOCOL.md, "Extending a message"):
/// after the message's last field, zero or more entries `tag:u8, length:u32, bytes[length]`, up to the
/// end of the payload. An absent area is an empty one, so the released frames stay byte for byte.
/// A decoder skips a tag it does not know by its length; a request's entry asks for the reply's entry
/// of the same tag, and a server sends a reply entry only when it was asked, so a client that never
/// asks (every client from before the rule) never sees one.
public struct ExtensionArea: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var tag: UInt8
        public var bytes: [UInt8]
        public init(tag: UInt8, bytes: [UInt8] = []) {
            self.tag = tag
            self.bytes = bytes
        }
    }

    /// In wire order; at most one entry a tag.
    public private(set) var entries: [Entry] = []

    public init(_ entries: [Entry] = []) {
        for e in entries { set(e.tag, e.bytes) }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public func contains(_ tag: UInt8) -> Bool { entries.contains { $0.tag == tag } }
    public func bytes(_ tag: UInt8) -> [UInt8]? { entries.first { $0.tag == tag }?.bytes }

    /// Adds or replaces the entry for `tag`.
    public mutating func set(_ tag: UInt8, _ bytes: [UInt8] = []) {
        if let i = entries.firstIndex(where: { $0.tag == tag }) {
            entries[i].bytes = bytes
        } else {
            entries.append(Entry(tag: tag, bytes: bytes))
        }
    }

    /// Keeps only the entries whose tag `asked` contains (what a reply may carry).
    public func answering(_ asked: ExtensionArea) -> ExtensionArea {
        ExtensionArea(entries.filter { asked.contains($0.tag) })
    }

    func encode(into w: inout ByteWriter) {
        for e in entries {
            w.u8(e.tag)
            w.blob(e.bytes)
        }
    }

    /// Reads entries to the end of the payload; an entry that runs past it, or a tag twice, is `malformed_frame`.
    static func decode(from r: inout ByteReader) throws(PickerError) -> ExtensionArea {
        var area = ExtensionArea()
        while r.remaining > 0 {
            let tag = try r.u8()
            let bytes = try r.blob()
            guard !area.contains(tag) else { throw PickerError(.malformedFrame, "extension \(tag) given twice") }
            area.set(tag, bytes)
        }
        return area
    }
}

extension ExtensionArea {
    /// The u32 value of entry `tag`, nil when absent; an entry of another size is `malformed_frame`.
    public func u32(_ tag: UInt8) throws(PickerError) -> UInt32? {
        guard let bytes = bytes(tag) else { return nil }
        var r = ByteReader(bytes)
        let v = try r.u32()
        try r.expectEnd()
        return v
    }

    public mutating func setU32(_ tag: UInt8, _ value: UInt32) {
        var w = ByteWriter()
        w.u32(value)
        set(tag, w.bytes)
    }
}
