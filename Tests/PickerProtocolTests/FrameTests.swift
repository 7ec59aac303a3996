import PickerProtocol
import Testing

/// The fixed frame header and the protocol's constants.
@Suite struct FrameTests {
    @Test func encodedFrameIsLengthTypeIdPayloadBigEndian() {
        let frame = Frame(type: 0x22, requestID: 0x0102_0304, payload: [0xAA, 0xBB])
        #expect(frame.encoded() == [0, 0, 0, 7, 0x22, 1, 2, 3, 4, 0xAA, 0xBB])
    }

    @Test func emptyPayloadFrameIsNineBytes() {
        #expect(Request.ping.frame(id: 7).encoded() == [0, 0, 0, 5, 4, 0, 0, 0, 7])
    }

    @Test func typesWithTheHighBitSetAreEvents() {
        #expect(Frame(type: 0x80, requestID: 0, payload: []).isEvent)
        #expect(Frame(type: 0xFF, requestID: 0, payload: []).isEvent)
        #expect(!Frame(type: 0x7F, requestID: 0, payload: []).isEvent)
        for type in MessageType.allCases {
            let isEventType = type.rawValue >= 0x80
            #expect(Frame(type: type.rawValue, requestID: 0, payload: []).isEvent == isEventType, "\(type)")
        }
        #expect(MessageType.sessionEvent.rawValue == 0x80)
        #expect(MessageType.libraryEvent.rawValue == 0x81)
    }

    @Test func limitsAreTheDocumentedOnes() {
        #expect(ProtocolLimits.version == 1)
        #expect(ProtocolLimits.headerSize == 5)
        #expect(ProtocolLimits.maxRequestFrame == 1_048_576)
        #expect(ProtocolLimits.maxReplyFrame == 268_435_456)
    }
}
