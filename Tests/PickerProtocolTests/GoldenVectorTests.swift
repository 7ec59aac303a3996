import PickerProtocol
import Testing

/// The hex examples in docs/PROTOCOL.md are the codec's golden vectors: each must decode and
/// re-encode to exactly the same bytes, and every message type must have one.
@Suite struct GoldenVectorTests {
    @Test func protocolDocumentIsFoundAndParsesCleanly() {
        #expect(!ProtocolDocument.text.isEmpty, "cannot read \(ProtocolDocument.path)")
        #expect(ProtocolDocument.parseProblems == [])
        #expect(ProtocolDocument.vectors.count >= MessageType.allCases.count)
    }

    @Test func everyMessageTypeIsClassifiedAsRequestReplyOrEvent() {
        #expect(requestTypes.isDisjoint(with: replyTypes))
        #expect(requestTypes.isDisjoint(with: eventTypes))
        #expect(replyTypes.isDisjoint(with: eventTypes))
        #expect(requestTypes.union(replyTypes).union(eventTypes) == Set(MessageType.allCases))
        for type in MessageType.allCases {
            #expect((type.rawValue >= 0x80) == eventTypes.contains(type), "0x80 and above are event frames, and only they: \(type)")
        }
    }

    @Test func everyMessageTypeHasAVectorInTheDocument() {
        let documented = Set(ProtocolDocument.vectors.compactMap { v in v.bytes.count > 4 ? v.bytes[4] : nil })
        for type in MessageType.allCases {
            #expect(documented.contains(type.rawValue), "docs/PROTOCOL.md has no vector for \(type) (0x\(String(type.rawValue, radix: 16)))")
        }
    }

    @Test func everyVectorHasAnExpectedValueAndViceVersa() {
        let labels = Set(ProtocolDocument.vectors.map(\.label))
        #expect(labels == Set(GoldenVectorValues.byLabel.keys))
    }

    /// The comments in a block are generated from the bytes, so they cannot drift. On failure the
    /// message holds the block to paste into docs/PROTOCOL.md.
    @Test(arguments: ProtocolDocument.vectors)
    func vectorBlockIsTheGeneratedAnnotation(_ vector: DocVector) throws {
        let value = try #require(GoldenVectorValues.byLabel[vector.label])
        let idText = try #require(vector.label.split(separator: " ").first { $0.hasPrefix("id=") }?.dropFirst(3))
        let id = try #require(UInt32(idText))
        let frame: Frame
        switch value {
        case .request(let r): frame = r.frame(id: id)
        case .reply(let r): frame = r.frame(id: id)
        case .event(let e): frame = e.frame(subscriptionID: id)
        }
        let expected = VectorAnnotation.render(frame)
        #expect(vector.text == expected, "expected block:\n<!-- vector: \(vector.label) -->\n```hex\n\(expected)\n```")
    }

    /// The document's `server_version` is what pickerd sends (`Release.serverVersion`, which the daemon
    /// uses): a document saying "0.1.0" while the daemon says "pickerd 0.1.0" fails here.
    @Test func helloAndPongVectorsCarryTheServerVersionPickerdSends() throws {
        for label in ["helloReply id=1", "pong id=7"] {
            let vector = try #require(ProtocolDocument.vectors.first { $0.label == label })
            var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
            decoder.append(vector.bytes)
            let frame = try #require(try decoder.next())
            switch try Reply(frame: frame) {
            case .hello(let caps): #expect(caps.serverVersion == Release.serverVersion, "\(label)")
            case .pong(let version): #expect(version == Release.serverVersion, "\(label)")
            default: Issue.record("\(label) is not a helloReply or pong")
            }
        }
        #expect(ProtocolDocument.text.contains("`\"\(Release.serverVersion)\"`"), "the field table names the form")
    }

    @Test func aLabelUsedTwiceShowsTheSameBytes() {
        var seen: [String: [UInt8]] = [:]
        for v in ProtocolDocument.vectors + ProtocolDocument.refusals {
            if let earlier = seen[v.label] {
                #expect(earlier == v.bytes, "'\(v.label)' at line \(v.line) differs from its earlier copy")
            }
            seen[v.label] = v.bytes
        }
    }

    @Test(arguments: ProtocolDocument.vectors)
    func vectorDecodesAndReencodesByteForByte(_ vector: DocVector) throws {
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
        decoder.append(vector.bytes)
        let frame = try #require(try decoder.next(), "not one complete frame")
        #expect(decoder.bufferedByteCount == 0, "bytes after the frame")
        #expect(frame.encoded() == vector.bytes)

        let type = try #require(MessageType(rawValue: frame.type))
        #expect(vector.firstWord == "\(type)", "the label names \(vector.firstWord) but the type byte is \(type)")
        #expect(vector.label.contains("id=\(frame.requestID)"), "the label states another request id")

        let reencoded: [UInt8]
        let decoded: GoldenVectorValues.Message
        if eventTypes.contains(type) {
            #expect(frame.isEvent)
            let event = try Event(frame: frame)
            #expect(event.messageType == type)
            reencoded = event.frame(subscriptionID: frame.requestID).encoded()
            decoded = .event(event)
        } else if requestTypes.contains(type) {
            #expect(!frame.isEvent)
            let request = try Request(frame: frame)
            #expect(request.messageType == type)
            reencoded = request.frame(id: frame.requestID).encoded()
            decoded = .request(request)
        } else {
            #expect(!frame.isEvent)
            let reply = try Reply(frame: frame)
            #expect(reply.messageType == type)
            reencoded = reply.frame(id: frame.requestID).encoded()
            #expect(reply.encodedFrame(id: frame.requestID) == vector.bytes, "the daemon's one-buffer encoding")
            decoded = .reply(reply)
        }
        #expect(reencoded == vector.bytes, "re-encoded: \(hexString(reencoded))")
        #expect(decoded == GoldenVectorValues.byLabel[vector.label], "the bytes do not mean what the test expects")
    }

    @Test(arguments: ProtocolDocument.vectors.filter { v in
        v.bytes.count > 4 && requestTypes.contains { $0.rawValue == v.bytes[4] }
    })
    func requestVectorsFitTheRequestCap(_ vector: DocVector) {
        #expect(vector.bytes.count - 4 <= Int(ProtocolLimits.maxRequestFrame))
    }

    @Test func refusedExamplesArePresent() {
        #expect(ProtocolDocument.refusals.count >= 4)
    }

    /// `<!-- refused: CODE … -->` blocks must be refused by the server-side decoding path with CODE.
    @Test(arguments: ProtocolDocument.refusals)
    func refusedExampleIsRefusedWithTheStatedCode(_ vector: DocVector) throws {
        let expected = try #require(ErrorCode.allCases.first { $0.name == vector.firstWord },
                                    "'\(vector.firstWord)' is not an error code name")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(vector.bytes)
        let frame: Frame
        do {
            guard let f = try decoder.next() else {
                Issue.record("the decoder waits for more bytes instead of refusing")
                return
            }
            frame = f
        } catch {
            #expect(error.pickerError.code == expected)
            return
        }
        let error = thrownError { () throws(PickerError) in try Request(frame: frame) }
        #expect(error?.code == expected)
    }

    /// The error table must list every code with its number, name and pickerctl exit code.
    @Test func errorCodeTableListsEveryCodeWithItsExitCode() {
        var rows: [UInt16: (name: String, exit: String)] = [:]
        let section = ProtocolDocument.text.split(separator: "\n")
            .drop { $0 != "## Error codes" }.dropFirst()
            .prefix { !$0.hasPrefix("## ") }
        for line in section {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6, let code = UInt16(cells[1]), cells[2].hasPrefix("`") else { continue }
            rows[code] = (String(cells[2].dropFirst().dropLast()), cells[4])
        }
        for code in ErrorCode.allCases {
            let row = rows[code.rawValue]
            #expect(row?.name == code.name, "error table row for \(code.rawValue)")
            let exit: String
            switch code {
            case .nothingSelected: exit = "3"
            case .noSuchAlbum, .noSuchPhoto, .noSuchSession, .noSuchChoice: exit = "4"
            default: exit = "1"
            }
            #expect(row?.exit == exit, "pickerctl exit code for \(code.name)")
        }
        #expect(rows.count == ErrorCode.allCases.count)
    }
}
