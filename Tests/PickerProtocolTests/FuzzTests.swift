import PickerProtocol
import Testing

/// Deterministic fuzzing of the whole decoding path a server and a client run on untrusted bytes:
/// FrameDecoder, then Request(frame:) and Reply(frame:). It must never crash, never hang, and a
/// decoded value must re-encode to something that decodes to the same value.
@Suite struct FuzzTests {
    static let iterations = 20_000

    /// Valid frames to mutate: the golden vectors plus the round-trip samples.
    static let seeds: [[UInt8]] = {
        var out = ProtocolDocument.vectors.map(\.bytes)
        out += RequestTests.samples.map { $0.frame(id: 3).encoded() }
        out += ReplyTests.samples.map { $0.frame(id: 3).encoded() }.filter { $0.count < 4096 }
        return out
    }()

    static func mutate(_ input: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var b = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            switch Int.random(in: 0..<9, using: &rng) {
            case 0 where !b.isEmpty:  // flip a bit
                let i = Int.random(in: 0..<b.count, using: &rng)
                b[i] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            case 1 where !b.isEmpty:  // replace a byte with an interesting value
                let i = Int.random(in: 0..<b.count, using: &rng)
                b[i] = [0x00, 0x01, 0x02, 0x7F, 0x80, 0xC0, 0xED, 0xFE, 0xFF].randomElement(using: &rng) ?? 0
            case 2 where !b.isEmpty:  // truncate
                b.removeLast(Int.random(in: 1...b.count, using: &rng))
            case 3:  // append junk
                b += (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 4 where b.count > 1:  // delete a range
                let i = Int.random(in: 0..<b.count, using: &rng)
                b.removeSubrange(i..<min(b.count, i + Int.random(in: 1...8, using: &rng)))
            case 5:  // insert bytes
                let i = Int.random(in: 0...b.count, using: &rng)
                b.insert(contentsOf: (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: i)
            case 6 where b.count >= 13:  // make a u32 inside the payload huge (counts, string lengths)
                let i = Int.random(in: 9...(b.count - 4), using: &rng)
                b.replaceSubrange(i..<i + 4, with: [0xFF, 0xFF, 0xFF, UInt8.random(in: 0...255, using: &rng)])
            case 7 where b.count >= 5:  // change the type byte
                b[4] = UInt8.random(in: 0...255, using: &rng)
            case 8 where b.count >= 4:  // lie in the length prefix
                let n = UInt32.random(in: 0...UInt32(b.count + 8), using: &rng)
                b.replaceSubrange(0..<4, with: [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)])
            default:
                b.append(UInt8.random(in: 0...255, using: &rng))
            }
        }
        return b
    }

    static func randomInput(_ rng: inout SeededGenerator) -> [UInt8] {
        let payload = (0..<Int.random(in: 0...48, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        if Bool.random(using: &rng) {  // well framed, random type and payload: reaches the payload decoders
            let type = MessageType.allCases.randomElement(using: &rng)?.rawValue ?? 0
            return Frame(type: Bool.random(using: &rng) ? type : UInt8.random(in: 0...255, using: &rng),
                         requestID: UInt32.random(in: 0...UInt32.max, using: &rng), payload: payload).encoded()
        }
        return payload  // raw noise, length prefix included
    }

    /// Decodes one frame both ways; whatever decodes must be stable under re-encoding.
    static func exercise(_ frame: Frame) {
        if let request = try? Request(frame: frame) {
            let again = try? Request(frame: request.frame(id: frame.requestID))
            #expect(again == request, "request not stable: \(hexString(frame.encoded()))")
        }
        if let reply = try? Reply(frame: frame) {
            let again = try? Reply(frame: reply.frame(id: frame.requestID))
            #expect(again == reply, "reply not stable: \(hexString(frame.encoded()))")
        }
    }

    // How fast this runs is for `make bench` to say: a timer in a parallel debug suite on 2 cores flakes.
    @Test func randomAndMutatedFramesNeverCrash() {
        var rng = SeededGenerator(seed: 0x5049_434B_4552_4421)  // "PICKERD!"
        var framesSeen = 0
        var refusals = 0
        do {
            for i in 0..<Self.iterations {
                let input: [UInt8]
                if i % 2 == 0, let seed = Self.seeds.randomElement(using: &rng) {
                    input = Self.mutate(seed, &rng)
                } else {
                    input = Self.randomInput(&rng)
                }
                let max = Bool.random(using: &rng) ? ProtocolLimits.maxRequestFrame : 64
                var decoder = FrameDecoder(maxFrameLength: max)
                // Sometimes one append, sometimes in random pieces, as a socket would deliver them.
                var pieces: [ArraySlice<UInt8>] = [input[...]]
                if Bool.random(using: &rng), input.count > 1 {
                    let cut = Int.random(in: 1..<input.count, using: &rng)
                    pieces = [input[..<cut], input[cut...]]
                }
                pieces: for piece in pieces {
                    decoder.append(piece)
                    // Each iteration of this loop either returns a frame (consuming ≥ 9 bytes), waits or throws.
                    for _ in 0...(input.count / 9 + 1) {
                        do {
                            guard let frame = try decoder.next() else { break }
                            framesSeen += 1
                            Self.exercise(frame)
                        } catch {
                            refusals += 1
                            break pieces
                        }
                    }
                }
                // The payload decoders also see the raw bytes as a payload of every type.
                if i % 8 == 0 {
                    for type in MessageType.allCases {
                        Self.exercise(Frame(type: type.rawValue, requestID: 1, payload: input))
                    }
                }
            }
        }
        #expect(framesSeen > Self.iterations / 4, "the fuzzer must reach the payload decoders")
        #expect(refusals > 0, "the fuzzer must reach the framing refusals")
    }

    /// Where a stream of bytes ends, read independently of FrameDecoder.
    enum StreamEnd: Equatable {
        case needMore, refused
    }

    /// PROTOCOL's framing read by hand: `length[4]` big-endian counts the bytes after it, the first
    /// of which is the type and the next four the request id; a length under 5 or over `max` is refused.
    /// - Returns: each frame's wire bytes in order, and how the stream ends.
    static func referenceSplit(_ bytes: [UInt8], max: Int) -> (frames: [ArraySlice<UInt8>], end: StreamEnd) {
        var frames: [ArraySlice<UInt8>] = []
        var at = 0
        while bytes.count - at >= 4 {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if length > max || length < 5 { return (frames, .refused) }
            guard bytes.count - at - 4 >= length else { break }
            frames.append(bytes[at..<at + 4 + length])
            at += 4 + length
        }
        return (frames, .needMore)
    }

    /// Drains a decoder: the frames it gives, then whether it waits or refuses.
    static func drain(_ decoder: inout FrameDecoder, into frames: inout [Frame]) -> StreamEnd {
        while true {
            do {
                guard let frame = try decoder.next() else { return .needMore }
                frames.append(frame)
            } catch {
                return .refused
            }
        }
    }

    /// Streams of whole, cut and damaged frames, decoded in one append and byte by byte, must split
    /// exactly where the length prefixes say; each frame re-encodes to its own wire bytes.
    @Test func framesSplitWhereTheLengthPrefixesSayAndReencodeToTheirBytes() {
        var rng = SeededGenerator(seed: 7)
        var framesChecked = 0, refusedStreams = 0
        for _ in 0..<500 {
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let seed = Self.seeds.randomElement(using: &rng) ?? []
                stream += Bool.random(using: &rng) ? seed : Self.mutate(seed, &rng)
            }
            let max = Bool.random(using: &rng) ? 1 << 20 : 64
            let reference = Self.referenceSplit(stream, max: max)

            var whole = FrameDecoder(maxFrameLength: UInt32(max))
            whole.append(stream[...])
            var wholeFrames: [Frame] = []
            let wholeEnd = Self.drain(&whole, into: &wholeFrames)

            var trickle = FrameDecoder(maxFrameLength: UInt32(max))
            var trickleFrames: [Frame] = []
            var trickleEnd = StreamEnd.needMore
            for byte in stream where trickleEnd == .needMore {
                trickle.append([byte][...])
                trickleEnd = Self.drain(&trickle, into: &trickleFrames)
            }

            let context = hexString(stream)
            #expect(wholeEnd == reference.end, "\(context)")
            #expect(trickleEnd == reference.end, "\(context)")
            #expect(wholeFrames == trickleFrames, "\(context)")
            #expect(wholeFrames.map { $0.encoded() } == reference.frames.map(Array.init), "\(context)")
            framesChecked += wholeFrames.count
            refusedStreams += reference.end == .refused ? 1 : 0
        }
        // The streams must reach both outcomes, or the comparison says little.
        #expect(framesChecked > 500)
        #expect(refusedStreams > 10)
    }
}
