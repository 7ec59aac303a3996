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

    @Test func randomAndMutatedFramesNeverCrashAndFinishQuickly() {
        var rng = SeededGenerator(seed: 0x5049_434B_4552_4421)  // "PICKERD!"
        let clock = ContinuousClock()
        var framesSeen = 0
        var refusals = 0
        let elapsed = clock.measure {
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
        #expect(elapsed < .seconds(30))
    }

    @Test func decodingIsDeterministic() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let input = Self.randomInput(&rng)
            var a = FrameDecoder(maxFrameLength: 1 << 20)
            var b = FrameDecoder(maxFrameLength: 1 << 20)
            a.append(input)
            b.append(input)
            let fa = try? a.next()
            let fb = try? b.next()
            #expect(fa == fb)
            if let f = fa ?? nil {
                #expect((try? Request(frame: f)) == (try? Request(frame: f)))
            }
        }
    }
}
