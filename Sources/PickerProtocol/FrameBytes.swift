/// A frame's bytes on the wire as the buffers it is made of, in order. A picture travels as the
/// very buffer the render cache holds, beside the few bytes around it, rather than copied into
/// one new frame buffer: for a cached pane that copy was most of a warm `getImage`'s cost (a
/// fresh multi-hundred-KiB allocation, page-faulted in, for every reply).
public struct FrameBytes: Sendable, Equatable {
    /// The buffers, none empty.
    public private(set) var parts: [[UInt8]]
    /// Their total size.
    public private(set) var count: Int

    public init(_ bytes: [UInt8]) {
        self.init(parts: [bytes])
    }

    public init(parts: [[UInt8]]) {
        self.parts = parts.filter { !$0.isEmpty }
        count = parts.reduce(0) { $0 + $1.count }
    }

    /// Adds `more` to the end of the last buffer (small frames queued together share one).
    public mutating func append(_ more: [UInt8]) {
        guard !more.isEmpty else { return }
        if parts.isEmpty { parts = [more] } else { parts[parts.count - 1].append(contentsOf: more) }
        count += more.count
    }

    /// The bytes in one buffer (a copy unless there is one part).
    public var joined: [UInt8] {
        parts.count == 1 ? parts[0] : Array(parts.joined())
    }
}
