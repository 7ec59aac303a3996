import Testing
@testable import PickerProtocol

/// A session's photo filter on the wire (PROTOCOL.md, `sessionNew` tag 2).
@Suite struct SessionFilterWireTests {
    static let withFilter = NewSession(name: "main", width: 800, height: 600, maxSelection: 1, title: "Open",
                                       filter: ["*.png", "*.PNG"])

    private func documented() throws -> Frame {
        let v = try #require(ProtocolDocument.extended.first { $0.label == "sessionNew id=40 with a filter" },
                             "no block 'sessionNew id=40 with a filter' in PROTOCOL.md")
        var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxRequestFrame)
        decoder.append(v.bytes)
        return try #require(try decoder.next())
    }

    @Test func theDocumentsSessionNewWithAFilterDecodesAndReencodesByteForByte() throws {
        let frame = try documented()
        #expect(try Request(frame: frame) == .sessionNew(Self.withFilter))
        #expect(Request.sessionNew(Self.withFilter).frame(id: 40) == frame)
    }

    @Test func choicesAndAFilterTravelTogetherAndNoneIsTheReleasedFrame() throws {
        var both = Self.withFilter
        both.choices = [SessionChoice(id: "c", label: "C", value: "true")]
        #expect(try Request(frame: Request.sessionNew(both).frame(id: 7)) == .sessionNew(both))
        var plain = Self.withFilter
        plain.filter = []
        #expect(try documented().payload.starts(with: Request.sessionNew(plain).frame(id: 40).payload))
    }

    @Test func aFilterEntryOfTheWrongShapeIsMalformed() throws {
        var broken = Request.sessionNew(NewSession(name: "main", width: 800, height: nil)).frame(id: 1)
        broken.payload += [2, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0]  // one pattern whose string runs past the entry
        #expect(thrownError { () throws(PickerError) in try Request(frame: broken) }?.code == .malformedFrame)
    }
}
