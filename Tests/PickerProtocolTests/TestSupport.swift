import PickerProtocol

/// Parses hex pairs separated by whitespace; `#` starts a comment that runs to the end of the line.
/// Returns nil on anything that is not a pair of hex digits.
func bytes(hex text: String) -> [UInt8]? {
    var out: [UInt8] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for token in code.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard token.count == 2, let b = UInt8(token, radix: 16) else { return nil }
            out.append(b)
        }
    }
    return out
}

/// Lower-case hex pairs separated by spaces, for readable failure messages.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { b in
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }.joined(separator: " ")
}

/// Runs a decoding step and returns the error it threw, nil if it succeeded.
func thrownError<T>(_ body: () throws(PickerError) -> T) -> PickerError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The complete wire bytes of a frame built from parts, length computed.
func wireFrame(type: UInt8, id: UInt32 = 1, payload: [UInt8]) -> [UInt8] {
    Frame(type: type, requestID: id, payload: payload).encoded()
}

/// A string field: u32 big-endian byte count, then the bytes as given (not necessarily UTF-8).
func stringField(_ raw: [UInt8]) -> [UInt8] {
    let n = UInt32(raw.count)
    return [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)] + raw
}

func stringField(_ s: String) -> [UInt8] { stringField(Array(s.utf8)) }

/// SplitMix64: a small, fast, seeded generator so fuzz runs are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Which message types are requests, replies and events. Kept by hand on purpose:
/// `everyMessageTypeIsClassifiedAsRequestReplyOrEvent` fails when a new case is added without deciding its direction.
let requestTypes: Set<MessageType> = [
    .hello, .ping, .libraryInfo, .scanProgress, .sessionNew, .sessionList, .sessionShow, .sessionResize, .sessionClose,
    .albums, .selectAlbum, .photos, .selectPhoto, .stepPhoto, .status, .getImage,
    .toggle, .selection, .clearSelection, .thumbnails, .preview, .subscribe, .cancel,
    .setSort, .photosPage, .photoInfo, .sessionFinish, .choices, .setChoice,
]
let replyTypes: Set<MessageType> = [
    .helloReply, .error, .pong, .libraryInfoReply, .scanProgressReply, .sessionState, .sessionListReply, .sessionClosed,
    .albumsReply, .photosReply, .image, .selectionReply, .thumbnailsReply, .subscribed, .cancelReply,
    .photosPageReply, .photoInfoReply, .choicesReply,
]
/// Server-initiated frames (type ≥ 0x80): neither requests nor replies.
let eventTypes: Set<MessageType> = [.sessionEvent, .libraryEvent, .libraryChangesEvent, .scanProgressEvent]
