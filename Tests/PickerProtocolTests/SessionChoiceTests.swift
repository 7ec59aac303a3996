import PickerProtocol
import Testing

/// A session's choices on the wire (PROTOCOL.md, `choices`): `sessionNew`'s extension tag 1 carries
/// them, `choicesReply` lists them, `setChoice` changes one.
@Suite struct SessionChoiceTests {
    private func extended(_ label: String) throws -> Frame {
        let v = try #require(ProtocolDocument.extended.first { $0.label == label }, "no block '\(label)' in PROTOCOL.md")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(v.bytes)
        return try #require(try decoder.next())
    }

    static let withChoices = NewSession(name: "main", width: 800, height: 600, maxSelection: 1, title: "Open",
                                        choices: [SessionChoice(id: "compress", label: "Compress", value: "false")])

    @Test func theDocumentsSessionNewWithChoicesDecodesAndReencodesByteForByte() throws {
        let frame = try extended("sessionNew id=39 with choices")
        #expect(try Request(frame: frame) == .sessionNew(Self.withChoices))
        #expect(Request.sessionNew(Self.withChoices).frame(id: 39) == frame)
    }

    /// Old client, new server: a sessionNew without choices is the released frame (no area).
    @Test func aSessionNewWithoutChoicesIsTheReleasedFrame() throws {
        var plain = Self.withChoices
        plain.choices = []
        let frame = Request.sessionNew(plain).frame(id: 39)
        let withArea = try extended("sessionNew id=39 with choices")
        #expect(withArea.payload.starts(with: frame.payload))
        #expect(withArea.payload.count - frame.payload.count == 5 + 41)
    }

    /// New client, older server: a tag it does not know is skipped; a known tag of the wrong shape is malformed.
    @Test func anUnknownTagIsSkippedAndABrokenChoicesEntryIsMalformed() throws {
        var frame = try extended("sessionNew id=39 with choices")
        frame.payload += [9, 0, 0, 0, 2, 0xAA, 0xBB]
        #expect(try Request(frame: frame) == .sessionNew(Self.withChoices))
        var broken = Request.sessionNew(NewSession(name: "main", width: 800, height: nil)).frame(id: 1)
        broken.payload += [1, 0, 0, 0, 5, 0, 0, 0, 1, 0]
        #expect(thrownError { () throws(PickerError) in try Request(frame: broken) }?.code == .malformedFrame)
    }

    @Test func aCheckBoxFlipsAndAListMovesToItsNextOptionAndRoundsTheEnd() {
        var box = SessionChoice(id: "c", label: "C", value: "false")
        #expect(box.isCheckBox && box.allowedValues == ["true", "false"])
        #expect(box.nextValue == "true")
        box.value = "true"
        #expect(box.nextValue == "false")
        var list = SessionChoice(id: "e", label: "E", options: [.init(id: "a", label: "A"), .init(id: "b", label: "B")], value: "a")
        #expect(list.nextValue == "b" && list.valueLabel == "A")
        list.value = "b"
        #expect(list.nextValue == "a")
    }

    @Test func theNewCodeAndChangeHaveTheirNames() {
        #expect(ErrorCode.noSuchChoice.rawValue == 18 && ErrorCode.noSuchChoice.name == "no_such_choice")
        #expect(SessionChange.choice.rawValue == 9 && SessionChange.choice.name == "choice")
    }
}
