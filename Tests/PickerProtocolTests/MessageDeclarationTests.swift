import PickerProtocol
import Testing

/// The declarations are the one table of messages: every type number is declared exactly once,
/// as a request, a reply or an event, and every request names a reply that exists.
@Suite struct MessageDeclarationTests {
    static let eventTypes: Set<MessageType> = [.sessionEvent, .libraryEvent, .libraryChangesEvent, .scanProgressEvent]

    @Test func everyMessageTypeIsDeclaredOnceAsARequestAReplyOrAnEvent() {
        let requests = RequestDeclaration.all.map(\.type)
        let replies = ReplyDeclaration.all.map(\.type)
        #expect(Set(requests).count == requests.count, "a request declared twice")
        #expect(Set(replies).count == replies.count, "a reply declared twice")
        #expect(Set(requests).isDisjoint(with: replies))
        #expect(Set(requests).union(replies).union(Self.eventTypes) == Set(MessageType.allCases))
    }

    @Test func everyRequestIsAnsweredByADeclaredReplyAndHasItsOwnNumberBelowTheEvents() {
        let replies = Set(ReplyDeclaration.all.map(\.type))
        for d in RequestDeclaration.all {
            #expect(replies.contains(d.answer), "\(d.type) is answered by \(d.answer), which is not a reply")
            #expect(d.type.rawValue < 0x80)
        }
    }

    /// Image work is exactly the three rendering requests; only hello, ping, subscribe and cancel
    /// are answered without queueing.
    @Test func schedulesAreTheDocumentedOnes() {
        let image = RequestDeclaration.all.filter { $0.schedule == .image }.map(\.type)
        let control = RequestDeclaration.all.filter { $0.schedule == .control }.map(\.type)
        #expect(Set(image) == [.getImage, .thumbnails, .preview])
        #expect(Set(control) == [.hello, .ping, .subscribe, .cancel])
    }

    /// Reads never change a session; the requests that move, pick, sort, resize, create or close do.
    @Test func readsDoNotChangeTheSession() {
        let changing = Set(RequestDeclaration.all.filter(\.changesSession).map(\.type))
        #expect(changing == [.sessionNew, .sessionResize, .sessionClose, .selectAlbum, .photos, .selectPhoto,
                             .stepPhoto, .setSort, .toggle, .clearSelection])
    }
}
