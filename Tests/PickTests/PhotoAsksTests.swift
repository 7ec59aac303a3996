import PickerProtocol
import Testing
@testable import pickerctl

/// Issue 24 item 9: pick's own `selectPhoto`s on the way must not move the cursor back when their
/// events come in after newer asks; another client's change is still news.
@Suite struct PhotoAsksTests {
    private func state(photo index: Int) -> SessionState {
        SessionState(name: "s", title: "", width: 100, height: nil, maxSelection: 10, selectionCount: 0, album: "A", albumIndex: 2,
                     photo: "p\(index).jpg", photoIndex: index, photoCount: 20, message: "")
    }

    @Test func eventsOfEarlierAsksAreOldNewsUntilTheLastOneIsHeard() {
        var asks = PhotoAsks()
        asks.asked(2, ticket: 1)
        asks.asked(3, ticket: 2)
        asks.asked(4, ticket: 3)
        #expect(asks.lastAsked == 4)
        let second = asks.isOldNews(state(photo: 2)), third = asks.isOldNews(state(photo: 3))
        #expect(second && third)
        let last = asks.isOldNews(state(photo: 4))
        #expect(!last, "the last ask's event is the session as the user left it")
        #expect(asks.lastAsked == nil)
        let other = asks.isOldNews(state(photo: 9))
        #expect(!other, "another client's change afterwards is news")
    }

    @Test func onlyTheNewestAsksReplyCountsAndARefusedAskExpectsNoEvent() {
        var asks = PhotoAsks()
        asks.asked(2, ticket: 1)
        asks.asked(3, ticket: 2)
        let older = asks.replied(1, failedFor: nil)
        #expect(!older, "superseded by the newer ask")
        let newest = asks.replied(2, failedFor: 3)
        #expect(newest, "the newest, refused")
        #expect(asks.lastAsked == 2, "no event will come for the refused one")
        asks.asked(5, ticket: 3)
        asks.overtaken()
        let overtaken = asks.replied(3, failedFor: nil)
        #expect(!overtaken, "a waited-for request moved the photo after it")
    }

    @Test func aReplyWhoseEventCameFirstIsOlderThanWhatTheEventsTold() {
        // The event connection may be ahead of the reply: the ask's event, then the photo found
        // broken by its picture, both read before the ask's reply (a fresh-clone CI run).
        var asks = PhotoAsks()
        asks.asked(4, ticket: 1)
        #expect(asks.isUnheard(4), "reply first: the reply is the newest news")
        _ = asks.isOldNews(state(photo: 4))
        #expect(!asks.isUnheard(4), "event first: the reply must not undo what came after it")
    }
}
