/// Splits a byte stream into frames. Partial input is not an error: `next()`
/// answers nil ("need more") and keeps its place. The length is checked against
/// the maximum before a byte of the frame is buffered beyond the 4-byte prefix.
public struct FrameDecoder: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        /// The length prefix exceeds the maximum; the connection must be closed.
        case tooLarge(length: UInt32, max: UInt32)
        /// The length prefix is smaller than the fixed header.
        case tooShort(length: UInt32)

        public var pickerError: PickerError {
            switch self {
            case let .tooLarge(length, max):
                return PickerError(.frameTooLarge, "frame of \(length) bytes exceeds the maximum of \(max) bytes")
            case let .tooShort(length):
                return PickerError(.malformedFrame, "frame length \(length) is shorter than the 5-byte header")
            }
        }
    }

    public let maxFrameLength: UInt32
    /// Received bytes are `buffer[start..<filled]`; past `filled` is room already zeroed for
    /// `receive`, kept between calls so a picture's buffer is zero-filled once, not per read.
    private var buffer: [UInt8] = []
    private var start = 0
    private var filled = 0

    public init(maxFrameLength: UInt32) {
        self.maxFrameLength = maxFrameLength
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { filled - start }

    /// The declared length of the frame being received, once its prefix is in.
    /// Lets a reader refuse an oversized frame before reading its body.
    public var pendingLength: UInt32? {
        guard bufferedByteCount >= 4 else { return nil }
        return readU32(at: start)
    }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        compact()
        // Room for the whole frame now being received, once and before its first bytes are
        // copied in: a large reply then lands in one allocation (no doubling copies, each a fresh
        // allocation page-faulted in again).
        if let length = Self.lengthPrefix(buffer[start..<filled], bytes), length <= maxFrameLength {
            buffer.reserveCapacity(start + 4 + Int(length))
        }
        dropRoom()
        buffer.append(contentsOf: bytes)
        filled = buffer.count
    }

    /// Lets `read` put arriving bytes straight into the buffer and keeps the count it returns:
    /// a picture lands in the buffer it is handed over from, with no bounce buffer and no copy.
    /// The room offered is the rest of the frame being received, or `chunk` bytes when that
    /// is more (or the frame's length is not in yet).
    public mutating func receive<E: Error>(chunk: Int = 16 * 1024,
                                           _ read: (UnsafeMutableRawBufferPointer) throws(E) -> Int) throws(E) {
        compact()
        let end = filled
        let rest = restOfPendingFrame
        let room = max(chunk, rest)
        if buffer.count < end + room {
            if rest > chunk { buffer.reserveCapacity(end + rest) }  // one allocation for a picture
            buffer.append(contentsOf: repeatElement(0, count: end + room - buffer.count))
        }
        let outcome = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(E) in try read(UnsafeMutableRawBufferPointer(rebasing: raw[end..<(end + room)])) }
        }
        filled += (try? outcome.get()).map { min(max($0, 0), room) } ?? 0
        _ = try outcome.get()
    }

    /// Bytes still to come of the frame whose length prefix is in; 0 when it is not (or is
    /// over the maximum: `next()` refuses that frame).
    private var restOfPendingFrame: Int {
        guard let length = pendingLength, length <= maxFrameLength else { return 0 }
        return max(0, 4 + Int(length) - bufferedByteCount)
    }

    private mutating func compact() {
        if start > 0 && start >= filled / 2 {
            buffer.removeFirst(start)
            filled -= start
            start = 0
        }
    }

    /// Gives up the zeroed room past the received bytes (a trivial type: no work beyond the count).
    private mutating func dropRoom() {
        buffer.removeLast(buffer.count - filled)
    }

    /// The length prefix of the frame that `buffered` followed by `arriving` begins with, once
    /// four bytes are there.
    private static func lengthPrefix<C: Collection>(_ buffered: ArraySlice<UInt8>, _ arriving: C) -> UInt32?
    where C.Element == UInt8 {
        guard buffered.count + arriving.count >= 4 else { return nil }
        var length: UInt32 = 0
        for byte in buffered.prefix(4) { length = length << 8 | UInt32(byte) }
        for byte in arriving.prefix(max(0, 4 - buffered.count)) { length = length << 8 | UInt32(byte) }
        return length
    }

    /// The next complete frame, nil if more bytes are needed.
    public mutating func next() throws(Failure) -> Frame? {
        guard let length = pendingLength else { return nil }
        guard length <= maxFrameLength else { throw .tooLarge(length: length, max: maxFrameLength) }
        guard length >= UInt32(ProtocolLimits.headerSize) else { throw .tooShort(length: length) }
        let total = 4 + Int(length)
        guard bufferedByteCount >= total else { return nil }
        let type = buffer[start + 4]
        let id = readU32(at: start + 5)
        let payload: [UInt8]
        if start == 0 && total == filled && total > 64 * 1024 {
            // A large frame alone in the buffer (a picture): hand the buffer itself over, its
            // header shifted out, instead of copying it into a new allocation.
            dropRoom()
            payload = Self.takingPayload(&buffer)
            filled = 0
        } else {
            payload = Array(buffer[(start + 9)..<(start + total)])
        }
        start += total
        if start >= filled {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            filled = 0
        }
        return Frame(type: type, requestID: id, payload: payload)
    }

    /// The payload of the one frame `buffer` holds; `buffer` is left empty.
    private static func takingPayload(_ buffer: inout [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        swap(&payload, &buffer)
        payload.removeFirst(ProtocolLimits.headerSize + 4)
        return payload
    }

    private func readU32(at i: Int) -> UInt32 {
        UInt32(buffer[i]) << 24 | UInt32(buffer[i + 1]) << 16 | UInt32(buffer[i + 2]) << 8 | UInt32(buffer[i + 3])
    }
}
