import PickerProtocol
import Testing

/// Event frames: server-initiated, type ≥ 0x80, request id = the subscribe request's id.
@Suite struct EventTests {
    static let samples: [Event] = {
        var out: [Event] = SessionChange.allCases.map { .session($0, ReplyTests.fullSession) }
        out += [
            .session(.created, ReplyTests.emptySession),
            .session(.closed, ReplyTests.maxSession),
            .library(LibraryInfo(root: "/home/ann/Pictures", albumCount: 3, photoCount: 43, scanState: .ready,
                                 scannedAt: 1_764_400_005, skippedCount: 1)),
            .library(LibraryInfo(root: "/home/アン/写真", albumCount: 0, photoCount: 0, scanState: .scanning,
                                 scannedAt: 0, skippedCount: 0)),
            .library(LibraryInfo(root: "", albumCount: Int(UInt32.max), photoCount: Int(UInt32.max), scanState: .ready,
                                 scannedAt: .min, skippedCount: Int(UInt32.max))),
            .libraryChanges(LibraryChanges(added: ["2024/Kyoto/IMG_0042.jpg", "写真/a b.png"], removed: ["x.jpg"], changed: [])),
            .libraryChanges(LibraryChanges()),
            .scanProgress(ScanProgress(state: .scanning, filesDone: 41_200, filesExpected: 100_000, elapsedMilliseconds: 1100)),
            .scanProgress(ScanProgress(state: .ready, filesDone: 0, filesExpected: 0, elapsedMilliseconds: 0)),
        ]
        return out
    }()

    @Test(arguments: samples)
    func eventRoundTripsThroughItsFrame(_ event: Event) throws {
        for id: UInt32 in [0, 1, 30, .max] {
            let wire = event.frame(subscriptionID: id).encoded()
            var decoder = FrameDecoder(maxFrameLength: ProtocolLimits.maxReplyFrame)
            decoder.append(wire)
            let frame = try #require(try decoder.next())
            #expect(frame.requestID == id)
            #expect(frame.isEvent)
            #expect(frame.type == event.messageType?.rawValue)
            #expect(try Event(frame: frame) == event)
        }
    }

    @Test func everyEventTypeHasARoundTripSample() {
        #expect(Set(Self.samples.compactMap(\.messageType)) == eventTypes)
    }

    @Test func sessionChangeNumbersAreTheDocumentedOnes() {
        #expect(SessionChange.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(SessionChange.allCases.map(\.name) == ["album", "photo", "selection", "pane_size", "closed", "created",
                                                         "accepted", "cancelled", "choice"])
    }

    @Test func sessionEventIsAChangeByteThenTheSessionStatePayload() {
        let state = ReplyTests.fullSession
        let event = Event.session(.selection, state).frame(subscriptionID: 30)
        #expect(event.type == 0x80)
        #expect(event.requestID == 30)
        #expect(event.payload == [3] + Reply.session(state).frame(id: 30).payload)
    }

    @Test func libraryEventPayloadIsTheLibraryInfoReplyPayload() {
        let info = LibraryInfo(root: "/p", albumCount: 2, photoCount: 5, scanState: .ready, scannedAt: 7, skippedCount: 0)
        let event = Event.library(info).frame(subscriptionID: 31)
        #expect(event.type == 0x81)
        #expect(event.payload == Reply.libraryInfo(info).frame(id: 31).payload)
    }

    /// A change value a newer server sends is kept, named `change-N`, and encodes back the same.
    @Test(arguments: [0, 10, 0x80, 0xFF] as [UInt8])
    func unknownChangeByteIsKept(_ change: UInt8) throws {
        var payload = Event.session(.album, ReplyTests.fullSession).frame(subscriptionID: 1).payload
        payload[0] = change
        let frame = Frame(type: MessageType.sessionEvent.rawValue, requestID: 1, payload: payload)
        let event = try Event(frame: frame)
        #expect(event == .session(SessionChange(rawValue: change), ReplyTests.fullSession))
        #expect(SessionChange(rawValue: change).name == "change-\(change)")
        #expect(event.frame(subscriptionID: 1) == frame)
    }

    @Test(arguments: [0x7F, 0x03, 0x11, 0x51] as [UInt8])
    func nonEventTypeIsRefused(_ type: UInt8) {
        let frame = Frame(type: type, requestID: 1, payload: [])
        #expect(thrownError { () throws(PickerError) in try Event(frame: frame) }?.code == .unknownMessageType)
    }

    /// A newer server may send event kinds this decoder does not know: they are kept, not a decode failure,
    /// and encode back to the same frame.
    @Test(arguments: [0x84, 0xC0, 0xFF] as [UInt8])
    func unknownEventTypeIsKept(_ type: UInt8) throws {
        let frame = Frame(type: type, requestID: 9, payload: [1, 2, 3])
        let event = try Event(frame: frame)
        #expect(event == .unknown(type: type, payload: [1, 2, 3]))
        #expect(event.frame(subscriptionID: 9) == frame)
    }

    @Test func libraryChangesAreThreeListsOfPaths() {
        let frame = Event.libraryChanges(LibraryChanges(added: ["a"], removed: [], changed: ["b", "c"])).frame(subscriptionID: 2)
        #expect(frame.type == 0x82)
        #expect(frame.payload == [0, 0, 0, 1, 0, 0, 0, 1, 0x61, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0x62, 0, 0, 0, 1, 0x63])
    }

    @Test func trailingBytesAfterAnEventAreMalformed() {
        var frame = Event.library(LibraryInfo(root: "/", albumCount: 1, photoCount: 1, scanState: .ready,
                                              scannedAt: 0, skippedCount: 0)).frame(subscriptionID: 1)
        frame.payload.append(0)
        #expect(thrownError { () throws(PickerError) in try Event(frame: frame) }?.code == .malformedFrame)
    }

    @Test func eventTypesAreRefusedAsRequestsAndAsReplies() {
        for type in eventTypes {
            let frame = Event.samples(of: type).frame(subscriptionID: 1)
            #expect(thrownError { () throws(PickerError) in try Request(frame: frame) }?.code == .unknownMessageType, "\(type)")
            #expect(thrownError { () throws(PickerError) in try Reply(frame: frame) }?.code == .unknownMessageType, "\(type)")
        }
    }
}

private extension Event {
    static func samples(of type: MessageType) -> Event {
        EventTests.samples.first { $0.messageType == type } ?? .session(.album, ReplyTests.emptySession)
    }
}
